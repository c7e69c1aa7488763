package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * Delegation tokens (KIP-48, kafka-clients 1.1+) as the Python side names their fields: principals
 * {@code User:name}, timestamps in epoch ms, the HMAC in base64.  Reached by name: 1.0 has none of them.
 */
public final class Tokens {
    private Tokens() {
    }

    /** KafkaPrincipals of {@code User:name} strings. */
    public static List<Object> principals(JsonArray names) throws Exception {
        Class<?> type = Class.forName("org.apache.kafka.common.security.auth.KafkaPrincipal");
        List<Object> out = new ArrayList<Object>();
        for (JsonElement name : names) {
            String[] parts = name.getAsString().split(":", 2);
            out.add(type.getConstructor(String.class, String.class).newInstance(parts[0], parts[1]));
        }
        return out;
    }

    /** A DelegationToken's fields; the HMAC only where asked (create: renew and expire take it). */
    public static JsonObject fields(Object token, boolean hmac) throws Exception {
        Object info = token.getClass().getMethod("tokenInfo").invoke(token);
        JsonObject out = new JsonObject();
        out.addProperty("token_id", String.valueOf(Reflect.invoke(info, "tokenId")));
        out.addProperty("owner", String.valueOf(Reflect.invoke(info, "owner")));
        JsonArray renewers = new JsonArray();
        for (Object renewer : (Collection<?>) Reflect.invoke(info, "renewers")) {
            renewers.add(String.valueOf(renewer));
        }
        out.add("renewers", renewers);
        for (String name : new String[] {"issueTimestamp", "expiryTimestamp", "maxTimestamp"}) {
            out.addProperty(name.replace("Timestamp", "_timestamp"), (Number) Reflect.invoke(info, name));
        }
        if (hmac) {
            out.addProperty("hmac", Base64.getEncoder().encodeToString(
                (byte[]) token.getClass().getMethod("hmac").invoke(token)));
        }
        return out;
    }

    /** An options object of the method's last parameter type, made with its no-argument constructor. */
    public static Object options(java.lang.reflect.Method method) throws Exception {
        Class<?>[] params = method.getParameterTypes();
        return params[params.length - 1].getConstructor().newInstance();
    }

    /** {@code method}(hmac, options.{@code setter}(args[{@code period}])): its expiry timestamp, one resource. */
    public static void byHmac(AdminClient client, JsonObject args, Call call, String method, String setter,
                              String period) throws Exception {
        Method found = AdminMethods.find(method, 2);
        Object options = found.getParameterTypes()[1].getConstructor().newInstance();
        options.getClass().getMethod(setter, long.class).invoke(options, args.get(period).getAsLong());
        Object result = found.invoke(client, Base64.getDecoder().decode(args.get("hmac").getAsString()), options);
        KafkaFuture<?> expiry = (KafkaFuture<?>) result.getClass().getMethod("expiryTimestamp").invoke(result);
        JsonObject entry = Json.outcome("token", expiry);
        if (entry.get("exception").isJsonNull()) {
            entry.getAsJsonObject("fields").addProperty("expiry_timestamp", (Number) expiry.get());
        }
        call.resources.add(entry);
    }
}
