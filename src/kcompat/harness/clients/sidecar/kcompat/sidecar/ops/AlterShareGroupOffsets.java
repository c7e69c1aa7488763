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
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** alterShareGroupOffsets(groupId, start offsets, options) (KIP-932, 4.1+), by reflection: one result per partition. */
public final class AlterShareGroupOffsets extends AdminOperation {
    private static final int ALTER_SHARE_GROUP_OFFSETS = 91;

    public AlterShareGroupOffsets() {
        super(ALTER_SHARE_GROUP_OFFSETS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method alter = Groups.method(client, "alterShareGroupOffsets", "String", "Map", "AlterShareGroupOffsetsOptions");
        Map<TopicPartition, Long> offsets = new LinkedHashMap<TopicPartition, Long>();
        for (JsonElement element : args.getAsJsonArray("offsets")) {
            JsonArray triple = element.getAsJsonArray();
            offsets.put(new TopicPartition(triple.get(0).getAsString(), triple.get(1).getAsInt()),
                        triple.get(2).getAsLong());
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
