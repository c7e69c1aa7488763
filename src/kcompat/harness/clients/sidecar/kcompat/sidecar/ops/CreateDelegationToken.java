package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.List;
import kcompat.sidecar.AdminMethods;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Tokens;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * createDelegationToken (KIP-48, kafka-clients 1.1+), by reflection: 1.0 has no such method (NoSuchMethodException).
 */
public final class CreateDelegationToken extends AdminOperation {
    private static final int CREATE_DELEGATION_TOKEN = 38;

    public CreateDelegationToken() {
        super(CREATE_DELEGATION_TOKEN);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method create = AdminMethods.find("createDelegationToken", 1);
        Object options = Tokens.options(create);
        options.getClass().getMethod("renewers", List.class)
            .invoke(options, Tokens.principals(args.getAsJsonArray("renewers")));
        options.getClass().getMethod("maxlifeTimeMs", long.class)
            .invoke(options, args.get("max_lifetime_ms").getAsLong());
        Object result = create.invoke(client, options);
        KafkaFuture<?> token = (KafkaFuture<?>) result.getClass().getMethod("delegationToken").invoke(result);
        JsonObject entry = Json.outcome("token", token);
        if (entry.get("exception").isJsonNull()) {
            entry.add("fields", Tokens.fields(token.get(), true));
        }
        call.resources.add(entry);
    }
}
