package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * listConsumerGroupOffsets(groupId, options) (2.0+), by reflection; named partitions through the options'
 * topicPartitions.  The group's one future failing is a result named by the group.
 */
public final class ListConsumerGroupOffsets extends AdminOperation {
    private static final int OFFSET_FETCH = 9;

    public ListConsumerGroupOffsets() {
        super(OFFSET_FETCH);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Groups.method(client, "listConsumerGroupOffsets", "String", "ListConsumerGroupOffsetsOptions");
        Object options = Groups.options(list, 1);
        if (args.has("partitions") && !args.get("partitions").isJsonNull()) {
            options.getClass().getMethod("topicPartitions", java.util.List.class)
                .invoke(options, Groups.partitions(args.getAsJsonArray("partitions")));
        }
        String group = args.get("group").getAsString();
        Object result = list.invoke(client, group, options);
        KafkaFuture<?> future = (KafkaFuture<?>) result.getClass().getMethod("partitionsToOffsetAndMetadata")
            .invoke(result);
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
