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
 * describeConsumerGroups as KIP-848 made it: kafka-clients sends ConsumerGroupDescribe first and falls back to
 * DescribeGroups, so the request version read is ConsumerGroupDescribe's (none: not sent) and each group's
 * {@code type} (GroupType, where the release has it) says which protocol's request answered.  A release without
 * the request's class predates KIP-848's groups: ClassNotFoundException, as a release lacking a method.
 */
public final class DescribeConsumerProtocolGroups extends AdminOperation {
    private static final int CONSUMER_GROUP_DESCRIBE = 69;
    private static final String REQUEST = "org.apache.kafka.common.requests.ConsumerGroupDescribeRequest";

    public DescribeConsumerProtocolGroups() {
        super(CONSUMER_GROUP_DESCRIBE);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        try {
            Class.forName(REQUEST);
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException("kafka-clients " + Reflect.clientVersion() + " has no " + REQUEST
                + ": its describeConsumerGroups predates KIP-848's groups", e);
        }
        Method describe = Groups.method(client, "describeConsumerGroups", "Collection", "DescribeConsumerGroupsOptions");
        Object options = Groups.options(describe, 1);
        Method include = Reflect.method(options.getClass(), "includeAuthorizedOperations", boolean.class);
        if (args.get("include_authorized_operations").getAsBoolean()) {
            if (include == null) {
                call.unsupported.add("include_authorized_operations");
            } else {
                include.invoke(options, true);
            }
        }
        List<String> groups = Groups.strings(args.getAsJsonArray("groups"));
        Object result = describe.invoke(client, groups, options);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> futures =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("describedGroups").invoke(result);
        for (String group : groups) {
            JsonObject entry = Groups.entry(group);
            Object described = Groups.resolve(entry, futures.get(group));
            if (described != null) {
                described(entry.getAsJsonObject("fields"), described);
            }
            call.resources.add(entry);
        }
        for (String field : new String[] {"state", "type", "members", "coordinator", "partition_assignor"}) {
            call.resultFields.add(field);
        }
    }

    private static void described(JsonObject fields, Object description) {
        fields.addProperty("state", Groups.state(description));
        Object type = Groups.get(description, "type");
        fields.addProperty("type", type == null ? null : type.toString().toLowerCase());
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
    }
}
