package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Base64;
import kcompat.sidecar.AdminMethods;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * expireDelegationToken by HMAC (KIP-48, kafka-clients 1.1+), by reflection: 1.0 has no such method
 * (NoSuchMethodException).
 */
public final class ExpireDelegationToken extends AdminOperation {
    private static final int EXPIRE_DELEGATION_TOKEN = 40;

    public ExpireDelegationToken() {
        super(EXPIRE_DELEGATION_TOKEN);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method method = AdminMethods.find("expireDelegationToken", 2);
        Object options = method.getParameterTypes()[1].getConstructor().newInstance();
        options.getClass().getMethod("expiryTimePeriodMs", long.class)
            .invoke(options, args.get("expiry_period_ms").getAsLong());
        Object result = method.invoke(client, Base64.getDecoder().decode(args.get("hmac").getAsString()), options);
        KafkaFuture<?> expiry = (KafkaFuture<?>) result.getClass().getMethod("expiryTimestamp").invoke(result);
        JsonObject entry = Json.outcome("token", expiry);
        if (entry.get("exception").isJsonNull()) {
            entry.getAsJsonObject("fields").addProperty("expiry_timestamp", (Number) expiry.get());
        }
        call.resources.add(entry);
    }
}
