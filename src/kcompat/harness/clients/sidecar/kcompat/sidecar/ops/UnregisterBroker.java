package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * unregisterBroker(int) (KIP-631, kafka-clients 3.0+), by reflection: the one broker's outcome; an older release
 * has no such method (NoSuchMethodException, as data).
 */
public final class UnregisterBroker extends AdminOperation {
    private static final int UNREGISTER_BROKER = 64;

    public UnregisterBroker() {
        super(UNREGISTER_BROKER);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        int brokerId = args.get("broker_id").getAsInt();
        Object result = Values.adminMethod("unregisterBroker", 1).invoke(client, brokerId);
        call.resources.add(Json.outcome("broker:" + brokerId, Values.future(result, "all")));
    }
}
