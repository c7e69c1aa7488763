package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * forceTerminateTransaction(String) (KIP-939, kafka-clients 4.1+), by reflection: the one id's outcome; an older
 * release has no such method (NoSuchMethodException, as data).
 */
public final class ForceTerminateTransaction extends AdminOperation {
    private static final int INIT_PRODUCER_ID = 22;

    public ForceTerminateTransaction() {
        super(INIT_PRODUCER_ID);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        String id = args.get("transactional_id").getAsString();
        Object result = Values.adminMethod("forceTerminateTransaction", 1).invoke(client, id);
        call.resources.add(Json.outcome(id, Values.future(result, "result")));
    }
}
