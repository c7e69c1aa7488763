package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** deleteConsumerGroups (KIP-229's DeleteGroups; the method arrived in 2.0), by reflection. */
public final class DeleteConsumerGroups extends AdminOperation {
    private static final int DELETE_GROUPS = 42;

    public DeleteConsumerGroups() {
        super(DELETE_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        delete(client, args, call, "deleteConsumerGroups");
    }

    /** {@code method}(groupIds, its Options): deleteStreamsGroups (KIP-1071) has this shape too. */
    static void delete(AdminClient client, JsonObject args, Call call, String method) throws Exception {
        String options = Character.toUpperCase(method.charAt(0)) + method.substring(1) + "Options";
        Method delete = Groups.method(client, method, "Collection", options);
        List<String> groups = Groups.strings(args.getAsJsonArray("groups"));
        Object result = delete.invoke(client, groups, Groups.options(delete, 1));
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> futures =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("deletedGroups").invoke(result);
        for (String group : groups) {
            JsonObject entry = Groups.entry(group);
            Groups.resolve(entry, futures.get(group));
            call.resources.add(entry);
        }
    }
}
