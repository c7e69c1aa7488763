package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** fenceProducers (KIP-618, kafka-clients 3.3+), by reflection: each id's producer id and its new epoch. */
public final class FenceProducers extends AdminOperation {
    private static final int INIT_PRODUCER_ID = 22;

    public FenceProducers() {
        super(INIT_PRODUCER_ID);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> ids = new ArrayList<String>();
        for (JsonElement id : args.getAsJsonArray("transactional_ids")) {
            ids.add(id.getAsString());
        }
        Object result = Values.adminMethod("fenceProducers", 1).invoke(client, ids);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> fenced =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("fencedProducers").invoke(result);
        call.resultFields.add("producer_id");
        call.resultFields.add("producer_epoch");
        for (String id : ids) {
            JsonObject entry = Json.outcome(id, fenced.get(id));
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                JsonObject fields = entry.getAsJsonObject("fields");
                for (String[] getter : new String[][] {{"producerId", "producer_id"}, {"epochId", "producer_epoch"}}) {
                    if (Reflect.method(result.getClass(), getter[0], String.class) != null) {
                        KafkaFuture<?> value =
                            (KafkaFuture<?>) result.getClass().getMethod(getter[0], String.class).invoke(result, id);
                        fields.add(getter[1], Values.json(value.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS)));
                    }
                }
            }
            call.resources.add(entry);
        }
    }
}
