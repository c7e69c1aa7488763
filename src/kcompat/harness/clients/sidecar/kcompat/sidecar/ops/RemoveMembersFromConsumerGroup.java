package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * removeMembersFromConsumerGroup (KIP-345, 2.4+), by reflection: the options carry the MemberToRemove
 * (group instance ids); one result per member.
 */
public final class RemoveMembersFromConsumerGroup extends AdminOperation {
    private static final int LEAVE_GROUP = 13;

    public RemoveMembersFromConsumerGroup() {
        super(LEAVE_GROUP);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method remove = Groups.method(client, "removeMembersFromConsumerGroup", "String",
                                      "RemoveMembersFromConsumerGroupOptions");
        Class<?> memberType = Class.forName("org.apache.kafka.clients.admin.MemberToRemove");
        List<String> ids = Groups.strings(args.getAsJsonArray("instance_ids"));
        List<Object> members = new ArrayList<Object>();
        for (String id : ids) {
            members.add(memberType.getConstructor(String.class).newInstance(id));
        }
        Object options = remove.getParameterTypes()[1].getConstructor(Collection.class).newInstance(members);
        Object result = remove.invoke(client, args.get("group").getAsString(), options);
        Method member = result.getClass().getMethod("memberResult", memberType);
        for (int i = 0; i < ids.size(); i++) {
            JsonObject entry = Groups.entry(ids.get(i));
            Groups.resolve(entry, (KafkaFuture<?>) member.invoke(result, members.get(i)));
            call.resources.add(entry);
        }
    }
}
