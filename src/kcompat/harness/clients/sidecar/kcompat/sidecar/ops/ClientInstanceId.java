package kcompat.sidecar.ops;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * clientInstanceId(Duration) (KIP-714, kafka-clients 3.7+), by reflection: the id it returns (null: none within
 * the timeout); an older release has no such method (NoSuchMethodException, as data).
 */
public final class ClientInstanceId extends AdminOperation {
    private static final int GET_TELEMETRY_SUBSCRIPTIONS = 71;

    public ClientInstanceId() {
        super(GET_TELEMETRY_SUBSCRIPTIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method method = Values.adminMethod("clientInstanceId", 1);
        Object id = method.invoke(client, java.time.Duration.ofMillis(args.get("timeout_ms").getAsLong()));
        JsonObject fields = new JsonObject();
        fields.add("instance_id", id == null ? JsonNull.INSTANCE : new JsonPrimitive(DeleteTopics.label(id)));
        call.resultFields.add("instance_id");
        call.resources.add(Values.listed("client", fields));
    }
}
