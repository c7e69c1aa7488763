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

/** deleteShareGroupOffsets(groupId, topics, options) (KIP-932, 4.1+), by reflection: one result per topic. */
public final class DeleteShareGroupOffsets extends AdminOperation {
    private static final int DELETE_SHARE_GROUP_OFFSETS = 92;

    public DeleteShareGroupOffsets() {
        super(DELETE_SHARE_GROUP_OFFSETS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method delete = Groups.method(client, "deleteShareGroupOffsets", "String", "Set",
                                      "DeleteShareGroupOffsetsOptions");
        Set<String> topics = new LinkedHashSet<String>(Groups.strings(args.getAsJsonArray("topics")));
        Object result = delete.invoke(client, args.get("group").getAsString(), topics, Groups.options(delete, 2));
        Method topic = result.getClass().getMethod("topicResult", String.class);
        for (String name : topics) {
            JsonObject entry = Groups.entry(name);
            Groups.resolve(entry, (KafkaFuture<?>) topic.invoke(result, name));
            call.resources.add(entry);
        }
    }
}
