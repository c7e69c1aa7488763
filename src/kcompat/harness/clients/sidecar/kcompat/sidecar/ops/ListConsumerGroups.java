package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * listConsumerGroups (2.0+), by reflection; {@code states} through inGroupStates (GroupState, 4.0+) or
 * inStates (ConsumerGroupState, KIP-518, 2.6+).  all() fails on any broker's error: that is the exception.
 */
public final class ListConsumerGroups extends AdminOperation {
    private static final int LIST_GROUPS = 16;

    public ListConsumerGroups() {
        super(LIST_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method list = Groups.method(client, "listConsumerGroups", "ListConsumerGroupsOptions");
        Object options = Groups.options(list, 0);
        Collection<String> states = Groups.strings(args.getAsJsonArray("states"));
        if (!states.isEmpty()) {
            filter(options, states, call);
        }
        Object result = list.invoke(client, options);
        Collection<?> listings = (Collection<?>) ((KafkaFuture<?>) result.getClass().getMethod("all").invoke(result))
            .get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        boolean withState = false;
        for (Object listing : listings) {
            JsonObject entry = Groups.entry(String.valueOf(Groups.get(listing, "groupId")));
            Groups.resolve(entry, KafkaFuture.completedFuture(null));
            if (Reflect.method(listing.getClass(), "groupState") != null
                    || Reflect.method(listing.getClass(), "state") != null) {
                withState = true;
                entry.getAsJsonObject("fields").addProperty("state", Groups.state(listing));
            }
            call.resources.add(entry);
        }
        if (withState) {
            call.resultFields.add("state");
        }
    }

    /** The states filter this release has; none (before 2.6) is an option it can't send. */
    private static void filter(Object options, Collection<String> states, Call call) throws Exception {
        for (String[] way : new String[][] {{"inGroupStates", "org.apache.kafka.common.GroupState"},
                                            {"inStates", "org.apache.kafka.common.ConsumerGroupState"}}) {
            Class<?> type;
            try {
                type = Class.forName(way[1]);
            } catch (ClassNotFoundException e) {
                continue;
            }
            Method setter = Reflect.method(options.getClass(), way[0], Set.class);
            if (setter == null) {
                continue;
            }
            Set<Object> parsed = new LinkedHashSet<Object>();
            for (String state : states) {
                parsed.add(type.getMethod("parse", String.class).invoke(null, state));
            }
            setter.invoke(options, parsed);
            return;
        }
        call.unsupported.add("states");
        throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
            + " has no ListConsumerGroupsOptions.inStates (KIP-518 arrived in 2.6)");
    }
}
