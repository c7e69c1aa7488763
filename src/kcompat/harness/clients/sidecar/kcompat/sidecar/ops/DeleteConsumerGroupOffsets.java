package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** deleteConsumerGroupOffsets (KIP-496, 2.4+), by reflection: one result per partition. */
public final class DeleteConsumerGroupOffsets extends AdminOperation {
    private static final int OFFSET_DELETE = 47;

    public DeleteConsumerGroupOffsets() {
        super(OFFSET_DELETE);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        delete(client, args, call, "deleteConsumerGroupOffsets");
    }

    /** {@code method}(groupId, partitions, its Options): deleteStreamsGroupOffsets (KIP-1071) has this shape too. */
    static void delete(AdminClient client, JsonObject args, Call call, String method) throws Exception {
        String options = Character.toUpperCase(method.charAt(0)) + method.substring(1) + "Options";
        Method delete = Groups.method(client, method, "String", "Set", options);
        Set<TopicPartition> partitions =
            new LinkedHashSet<TopicPartition>(Groups.partitions(args.getAsJsonArray("partitions")));
        Object result = delete.invoke(client, args.get("group").getAsString(), partitions, Groups.options(delete, 2));
        Method partition = result.getClass().getMethod("partitionResult", TopicPartition.class);
        for (TopicPartition tp : partitions) {
            JsonObject entry = Groups.entry(Groups.name(tp));
            Groups.resolve(entry, (KafkaFuture<?>) partition.invoke(result, tp));
            call.resources.add(entry);
        }
    }
}
