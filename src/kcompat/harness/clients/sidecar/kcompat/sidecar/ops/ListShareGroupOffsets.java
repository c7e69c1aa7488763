package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * listShareGroupOffsets(groupSpecs, options) (KIP-932, 4.1+), by reflection: one group, its spec naming the
 * partitions where asked; each partition's start offset, whatever the release's result holds (a
 * SharePartitionOffsetInfo since KIP-1226, earlier an OffsetAndMetadata or a Long), null where none is listed.
 */
public final class ListShareGroupOffsets extends AdminOperation {
    private static final int DESCRIBE_SHARE_GROUP_OFFSETS = 90;

    public ListShareGroupOffsets() {
        super(DESCRIBE_SHARE_GROUP_OFFSETS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Groups.method(client, "listShareGroupOffsets", "Map", "ListShareGroupOffsetsOptions");
        Object spec = Class.forName("org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec")
            .getConstructor().newInstance();
        if (args.has("partitions") && !args.get("partitions").isJsonNull()) {
            spec.getClass().getMethod("topicPartitions", Collection.class)
                .invoke(spec, Groups.partitions(args.getAsJsonArray("partitions")));
        }
        String group = args.get("group").getAsString();
        Object result = list.invoke(client, Collections.singletonMap(group, spec), Groups.options(list, 1));
        Method byGroup = null;
        for (String getter : new String[] {"partitionsToOffsetInfo", "partitionsToOffsetAndMetadata", "partitionsToOffset"}) {
            byGroup = byGroup != null ? byGroup : Reflect.method(result.getClass(), getter, String.class);
        }
        if (byGroup == null) {
            throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + "'s ListShareGroupOffsetsResult has no getter of one group's offsets");
        }
        JsonObject whole = Groups.entry(group);
        Object offsets = Groups.resolve(whole, (KafkaFuture<?>) byGroup.invoke(result, group));
        call.resultFields.add("offset");
        if (offsets == null) {
            call.resources.add(whole);
            return;
        }
        for (Map.Entry<?, ?> item : ((Map<?, ?>) offsets).entrySet()) {
            JsonObject entry = Groups.entry(Groups.name((TopicPartition) item.getKey()));
            Groups.resolve(entry, KafkaFuture.completedFuture(null));
            Object info = item.getValue();
            Object offset = info == null || info instanceof Number ? info : Groups.get(info, "startOffset", "offset");
            entry.getAsJsonObject("fields").addProperty("offset", (Number) offset);
            call.resources.add(entry);
        }
    }
}
