package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** alterConsumerGroupOffsets (KIP-396, 2.4+), by reflection: one result per partition. */
public final class AlterConsumerGroupOffsets extends AdminOperation {
    private static final int OFFSET_COMMIT = 8;

    public AlterConsumerGroupOffsets() {
        super(OFFSET_COMMIT);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        alter(client, args, call, "alterConsumerGroupOffsets");
    }

    /** {@code method}(groupId, offsets, its Options): alterStreamsGroupOffsets (KIP-1071) has this shape too. */
    static void alter(AdminClient client, JsonObject args, Call call, String method) throws Exception {
        String options = Character.toUpperCase(method.charAt(0)) + method.substring(1) + "Options";
        Method alter = Groups.method(client, method, "String", "Map", options);
        Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<TopicPartition, OffsetAndMetadata>();
        for (JsonElement element : args.getAsJsonArray("offsets")) {
            JsonArray triple = element.getAsJsonArray();
            offsets.put(new TopicPartition(triple.get(0).getAsString(), triple.get(1).getAsInt()),
                        new OffsetAndMetadata(triple.get(2).getAsLong()));
        }
        Object result = alter.invoke(client, args.get("group").getAsString(), offsets, Groups.options(alter, 2));
        Method partition = result.getClass().getMethod("partitionResult", TopicPartition.class);
        for (TopicPartition tp : offsets.keySet()) {
            JsonObject entry = Groups.entry(Groups.name(tp));
            Groups.resolve(entry, (KafkaFuture<?>) partition.invoke(result, tp));
            call.resources.add(entry);
        }
    }
}
