package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeConsumerGroups (2.0+), by reflection: state, members, coordinator, and authorizedOperations
 * (KIP-430, 2.3+) where asked; a release without includeAuthorizedOperations reports it unsupported.
 */
public final class DescribeConsumerGroups extends AdminOperation {
    private static final int DESCRIBE_GROUPS = 15;

    public DescribeConsumerGroups() {
        super(DESCRIBE_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method describe = Groups.method(client, "describeConsumerGroups", "Collection", "DescribeConsumerGroupsOptions");
        Object options = Groups.options(describe, 1);
        boolean asked = args.get("include_authorized_operations").getAsBoolean();
        Method include = Reflect.method(options.getClass(), "includeAuthorizedOperations", boolean.class);
        if (asked && include == null) {
            call.unsupported.add("include_authorized_operations");
        } else if (asked) {
            include.invoke(options, true);
        }
        List<String> groups = Groups.strings(args.getAsJsonArray("groups"));
        Object result = describe.invoke(client, groups, options);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> futures =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("describedGroups").invoke(result);
        for (String group : groups) {
            JsonObject entry = Groups.entry(group);
            Object description = Groups.resolve(entry, futures.get(group));
            if (description != null) {
                fields(entry.getAsJsonObject("fields"), description);
            }
            call.resources.add(entry);
        }
        for (String field : new String[] {"state", "members", "coordinator", "partition_assignor"}) {
            call.resultFields.add(field);
        }
        if (Reflect.method(Class.forName("org.apache.kafka.clients.admin.ConsumerGroupDescription"),
                           "authorizedOperations") != null) {
            call.resultFields.add("authorized_operations");
        }
    }

    private static void fields(JsonObject fields, Object description) {
        fields.addProperty("state", Groups.state(description));
        fields.addProperty("partition_assignor", String.valueOf(Groups.get(description, "partitionAssignor")));
        Object node = Groups.get(description, "coordinator");
        if (node != null) {
            fields.addProperty("coordinator", (Number) Groups.get(node, "id"));
        }
        JsonArray members = new JsonArray();
        for (Object member : (Collection<?>) Groups.get(description, "members")) {
            JsonObject item = new JsonObject();
            item.addProperty("member_id", String.valueOf(Groups.get(member, "consumerId", "memberId")));
            item.addProperty("client_id", String.valueOf(Groups.get(member, "clientId")));
            item.addProperty("host", String.valueOf(Groups.get(member, "host")));
            Object instance = Groups.get(member, "groupInstanceId");
            item.addProperty("group_instance_id", instance == null ? null : instance.toString());
            members.add(item);
        }
        fields.add("members", members);
        if (Reflect.method(description.getClass(), "authorizedOperations") != null) {
            fields.add("authorized_operations",
                       Groups.names((Collection<?>) Groups.get(description, "authorizedOperations")));
        }
    }
}
