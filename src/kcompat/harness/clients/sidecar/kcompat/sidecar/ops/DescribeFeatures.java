package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** describeFeatures (KIP-584, kafka-clients 2.7+), by reflection: supported and finalized feature ranges. */
public final class DescribeFeatures extends AdminOperation {
    private static final int API_VERSIONS = 18;

    public DescribeFeatures() {
        super(API_VERSIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Object result = Values.adminMethod("describeFeatures", 0).invoke(client);
        KafkaFuture<?> future = Values.future(result, "featureMetadata");
        JsonObject entry = Json.outcome("cluster", future);
        Object metadata = Values.outcome(entry, future);
        call.resultFields.add("features");
        if (metadata != null) {
            JsonObject features = new JsonObject();
            features.add("supported", ranges(Reflect.invoke(metadata, "supportedFeatures"), "minVersion", "maxVersion"));
            features.add("finalized", ranges(Reflect.invoke(metadata, "finalizedFeatures"), "minVersionLevel",
                                             "maxVersionLevel"));
            features.add("finalized_epoch", Values.json(Reflect.invoke(metadata, "finalizedFeaturesEpoch")));
            entry.getAsJsonObject("fields").add("features", features);
        }
        call.resources.add(entry);
    }

    /** {name: [min, max]} of a feature map, the range's getters named as this release names them. */
    private static JsonObject ranges(Object features, String min, String max) {
        JsonObject out = new JsonObject();
        if (features instanceof Map) {
            for (Map.Entry<?, ?> feature : ((Map<?, ?>) features).entrySet()) {
                JsonArray range = new JsonArray();
                range.add(Values.json(Reflect.invoke(feature.getValue(), min)));
                range.add(Values.json(Reflect.invoke(feature.getValue(), max)));
                out.add(String.valueOf(feature.getKey()), range);
            }
        }
        return out;
    }
}
