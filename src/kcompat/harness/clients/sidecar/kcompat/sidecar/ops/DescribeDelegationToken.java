package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
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
 * describeDelegationToken (KIP-48, kafka-clients 1.1+), by reflection: 1.0 has no such method (NoSuchMethodException).
 */
public final class DescribeDelegationToken extends AdminOperation {
    private static final int DESCRIBE_DELEGATION_TOKEN = 41;

    public DescribeDelegationToken() {
        super(DESCRIBE_DELEGATION_TOKEN);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method describe = AdminMethods.find("describeDelegationToken", 1);
        Object options = Tokens.options(describe);
        if (args.has("owners") && !args.get("owners").isJsonNull()) {
            options.getClass().getMethod("owners", List.class)
                .invoke(options, Tokens.principals(args.getAsJsonArray("owners")));
        }
        Object result = describe.invoke(client, options);
        KafkaFuture<?> tokens = (KafkaFuture<?>) result.getClass().getMethod("delegationTokens").invoke(result);
        JsonObject entry = Json.outcome("tokens", tokens);
        if (entry.get("exception").isJsonNull()) {
            JsonArray found = new JsonArray();
            for (Object token : (List<?>) tokens.get()) {
                found.add(Tokens.fields(token, false));
            }
            entry.getAsJsonObject("fields").add("tokens", found);
        }
        call.resources.add(entry);
    }
}
