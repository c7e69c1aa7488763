package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * listStreamsGroupOffsets(groupSpecs, options) (KIP-1071, 4.1+), by reflection: one group, its spec naming the
 * partitions where asked (none: every partition); the results as {@link ListConsumerGroupOffsets} gives them.
 */
public final class ListStreamsGroupOffsets extends AdminOperation {
    private static final int OFFSET_FETCH = 9;

    public ListStreamsGroupOffsets() {
        super(OFFSET_FETCH);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Groups.method(client, "listStreamsGroupOffsets", "Map", "ListStreamsGroupOffsetsOptions");
        Object spec = Class.forName("org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec")
            .getConstructor().newInstance();
        if (args.has("partitions") && !args.get("partitions").isJsonNull()) {
            spec.getClass().getMethod("topicPartitions", Collection.class)
                .invoke(spec, Groups.partitions(args.getAsJsonArray("partitions")));
        }
        String group = args.get("group").getAsString();
        Object result = list.invoke(client, Collections.singletonMap(group, spec), Groups.options(list, 1));
        KafkaFuture<?> future = (KafkaFuture<?>) result.getClass()
            .getMethod("partitionsToOffsetAndMetadata", String.class).invoke(result, group);
        JsonObject whole = Groups.entry(group);
        Object offsets = Groups.resolve(whole, future);
        call.resultFields.add("offset");
        call.resultFields.add("metadata");
        if (offsets == null) {
            call.resources.add(whole);
            return;
        }
        for (Map.Entry<?, ?> item : ((Map<?, ?>) offsets).entrySet()) {
            JsonObject entry = Groups.entry(Groups.name((TopicPartition) item.getKey()));
            Groups.resolve(entry, KafkaFuture.completedFuture(null));
            OffsetAndMetadata offset = (OffsetAndMetadata) item.getValue();
            entry.getAsJsonObject("fields").addProperty("offset", offset == null ? null : offset.offset());
            entry.getAsJsonObject("fields").addProperty("metadata", offset == null ? null : offset.metadata());
            call.resources.add(entry);
        }
    }
}
