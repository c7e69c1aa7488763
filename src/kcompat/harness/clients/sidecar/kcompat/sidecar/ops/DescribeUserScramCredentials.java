package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeUserScramCredentials (KIP-554, kafka-clients 2.7+), by reflection: an older release has no such
 * method, which is its NoSuchMethodException.  Each user's result carries [{mechanism, iterations}].
 */
public final class DescribeUserScramCredentials extends AdminOperation {
    private static final int DESCRIBE_USER_SCRAM_CREDENTIALS = 50;

    public DescribeUserScramCredentials() {
        super(DESCRIBE_USER_SCRAM_CREDENTIALS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> users = new ArrayList<String>();
        for (JsonElement user : args.getAsJsonArray("users")) {
            users.add(user.getAsString());
        }
        Object result = AdminClient.class.getMethod("describeUserScramCredentials", List.class).invoke(client, users);
        for (String user : users) {
            KafkaFuture<?> future = (KafkaFuture<?>) result.getClass().getMethod("description", String.class)
                .invoke(result, user);
            JsonObject entry = Json.outcome(user, future);
            if (entry.get("exception").isJsonNull()) {
                JsonArray credentials = new JsonArray();
                for (Object info : (List<?>) Reflect.invoke(future.get(), "credentialInfos")) {
                    JsonObject credential = new JsonObject();
                    credential.addProperty("mechanism", String.valueOf(Reflect.invoke(info, "mechanism")));
                    credential.addProperty("iterations", (Number) Reflect.invoke(info, "iterations"));
                    credentials.add(credential);
                }
                entry.getAsJsonObject("fields").add("credentials", credentials);
            }
            call.resources.add(entry);
        }
    }
}
