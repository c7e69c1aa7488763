package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** listGroups (KIP-1043, 4.0+), by reflection; {@code types} through withTypes (GroupType), {@code states}
 * through inGroupStates (GroupState). */
public final class ListGroups extends AdminOperation {
    private static final int LIST_GROUPS = 16;

    public ListGroups() {
        super(LIST_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Groups.method(client, "listGroups", "ListGroupsOptions");
        Object options = Groups.options(list, 0);
        filter(options, "withTypes", "org.apache.kafka.common.GroupType", Groups.strings(args.getAsJsonArray("types")));
        filter(options, "inGroupStates", "org.apache.kafka.common.GroupState",
               Groups.strings(args.getAsJsonArray("states")));
        Object result = list.invoke(client, options);
        Collection<?> listings = (Collection<?>) ((KafkaFuture<?>) result.getClass().getMethod("all").invoke(result))
            .get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (Object listing : listings) {
            JsonObject entry = Groups.entry(String.valueOf(Groups.get(listing, "groupId")));
            Groups.resolve(entry, KafkaFuture.completedFuture(null));
            JsonObject fields = entry.getAsJsonObject("fields");
            Object type = Groups.get(listing, "type");
            fields.addProperty("type", type == null ? null : type.toString().toLowerCase());
            Object protocol = Groups.get(listing, "protocol");
            fields.addProperty("protocol_type", protocol == null ? null : protocol.toString());
            fields.addProperty("state", Groups.state(listing));
            call.resources.add(entry);
        }
        for (String field : new String[] {"type", "protocol_type", "state"}) {
            call.resultFields.add(field);
        }
    }

    /** Sets {@code setter} of the options to the named values of {@code enumClass} (its {@code parse}), if any. */
    private static void filter(Object options, String setter, String enumClass, List<String> names) throws Exception {
        if (names.isEmpty()) {
            return;
        }
        Method parse = Class.forName(enumClass).getMethod("parse", String.class);
        Set<Object> parsed = new LinkedHashSet<Object>();
        for (String name : names) {
            parsed.add(parse.invoke(null, name));
        }
        options.getClass().getMethod(setter, Set.class).invoke(options, parsed);
    }
}
