package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** listClientMetricsResources (KIP-714, kafka-clients 3.7+), by reflection: each listed resource's name. */
public final class ListClientMetricsResources extends AdminOperation {
    private static final int LIST_CLIENT_METRICS_RESOURCES = 74;

    public ListClientMetricsResources() {
        super(LIST_CLIENT_METRICS_RESOURCES);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Object result = Values.adminMethod("listClientMetricsResources", 0).invoke(client);
        KafkaFuture<?> all = Values.future(result, "all");
        for (Object listing : (Collection<?>) all.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            call.resources.add(Values.listed(String.valueOf(Reflect.invoke(listing, "name")), new JsonObject()));
        }
    }
}
