package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * alterUserScramCredentials (KIP-554, kafka-clients 2.7+), by reflection: an older release has no such method,
 * which is its NoSuchMethodException.  The client salts and hashes each password itself.
 */
public final class AlterUserScramCredentials extends AdminOperation {
    private static final int ALTER_USER_SCRAM_CREDENTIALS = 51;
    private static final String ADMIN = "org.apache.kafka.clients.admin.";

    public AlterUserScramCredentials() {
        super(ALTER_USER_SCRAM_CREDENTIALS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method alter = AdminClient.class.getMethod("alterUserScramCredentials", List.class);
        Class<?> mechanism = Class.forName(ADMIN + "ScramMechanism");
        Class<?> info = Class.forName(ADMIN + "ScramCredentialInfo");
        List<Object> alterations = new ArrayList<Object>();
        for (JsonElement element : args.getAsJsonArray("upsertions")) {
            JsonObject item = element.getAsJsonObject();
            Object credential = info.getConstructor(mechanism, int.class).newInstance(
                mechanism(mechanism, item), item.get("iterations").getAsInt());
            alterations.add(Class.forName(ADMIN + "UserScramCredentialUpsertion")
                .getConstructor(String.class, info, String.class)
                .newInstance(item.get("user").getAsString(), credential, item.get("password").getAsString()));
        }
        for (JsonElement element : args.getAsJsonArray("deletions")) {
            JsonObject item = element.getAsJsonObject();
            alterations.add(Class.forName(ADMIN + "UserScramCredentialDeletion")
                .getConstructor(String.class, mechanism)
                .newInstance(item.get("user").getAsString(), mechanism(mechanism, item)));
        }
        Object result = alter.invoke(client, alterations);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> values =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("values").invoke(result);
        for (Map.Entry<String, KafkaFuture<?>> item : values.entrySet()) {
            call.resources.add(Json.outcome(item.getKey(), item.getValue()));
        }
    }

    private static Object mechanism(Class<?> type, JsonObject item) throws Exception {
        return type.getMethod("valueOf", String.class).invoke(null, item.get("mechanism").getAsString());
    }
}
