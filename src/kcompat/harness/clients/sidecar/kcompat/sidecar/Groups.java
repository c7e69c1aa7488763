package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * What the consumer-group ops share.  Every group method of the Admin API arrived after the oldest
 * kafka-clients on the axis (0.11 has none, 2.0 the first four, 2.4 KIP-396/496/345), so each is found by
 * name and parameter types' simple names: a release without it is a NoSuchMethodException, the call's
 * observation.
 */
public final class Groups {
    private Groups() {
    }

    /** The client's public method {@code name} whose parameters have these simple type names. */
    public static Method method(Object client, String name, String... parameters) throws NoSuchMethodException {
        for (Method m : client.getClass().getMethods()) {
            if (m.getName().equals(name) && simpleNames(m.getParameterTypes()).equals(java.util.Arrays.asList(parameters))) {
                return m;
            }
        }
        throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion() + " has no Admin." + name + "("
            + String.join(", ", parameters) + ")");
    }

    private static List<String> simpleNames(Class<?>[] types) {
        List<String> names = new ArrayList<String>();
        for (Class<?> type : types) {
            names.add(type.getSimpleName());
        }
        return names;
    }

    /** A new instance of a method's options parameter (its {@code index}-th parameter type). */
    public static Object options(Method method, int index) throws Exception {
        return method.getParameterTypes()[index].getConstructor().newInstance();
    }

    /** The first of these getters this release has, its value with Optional unwrapped; null if none. */
    public static Object get(Object target, String... getters) {
        for (String getter : getters) {
            if (Reflect.method(target.getClass(), getter) != null) {
                Object value = Reflect.invoke(target, getter);
                return value instanceof Optional ? ((Optional<?>) value).orElse(null) : value;
            }
        }
        return null;
    }

    /** A group's state as Kafka names it ("Stable"): ConsumerGroupState's and GroupState's toString. */
    public static String state(Object holder) {
        Object state = get(holder, "groupState", "state");
        return state == null ? null : state.toString();
    }

    /** A resource entry whose future completed: its value, or the error it failed with (null value). */
    public static Object resolve(JsonObject entry, KafkaFuture<?> future) {
        entry.add("fields", new JsonObject());
        try {
            Object value = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            entry.addProperty("error_code", 0);
            entry.addProperty("error_name", "NONE");
            entry.add("error_message", JsonNull.INSTANCE);
            entry.add("exception", JsonNull.INSTANCE);
            return value;
        } catch (Exception e) {
            Json.failed(entry, Reflect.unwrap(e));
            return null;
        }
    }

    public static JsonObject entry(String resource) {
        JsonObject entry = new JsonObject();
        entry.addProperty("resource", resource);
        return entry;
    }

    /** "topic:partition", as every client names a partition's result. */
    public static String name(TopicPartition partition) {
        return partition.topic() + ":" + partition.partition();
    }

    /** [topic, partition] pairs of the arguments' JSON. */
    public static List<TopicPartition> partitions(JsonArray pairs) {
        List<TopicPartition> found = new ArrayList<TopicPartition>();
        for (JsonElement pair : pairs) {
            JsonArray items = pair.getAsJsonArray();
            found.add(new TopicPartition(items.get(0).getAsString(), items.get(1).getAsInt()));
        }
        return found;
    }

    public static List<String> strings(JsonArray array) {
        List<String> found = new ArrayList<String>();
        for (JsonElement element : array) {
            found.add(element.getAsString());
        }
        return found;
    }

    /** Names of a collection's items (enums: their name), or JSON null for null. */
    public static JsonElement names(Collection<?> values) {
        if (values == null) {
            return JsonNull.INSTANCE;
        }
        JsonArray names = new JsonArray();
        for (Object value : values) {
            names.add(value instanceof Enum ? ((Enum<?>) value).name() : String.valueOf(value));
        }
        return names;
    }

    /**
     * describeConsumerGroups (2.0+) and describeClassicGroups (4.0+) alike, {@code method} by name: state,
     * members, coordinator, and authorizedOperations (KIP-430, 2.3+) where asked; a release without
     * includeAuthorizedOperations reports it unsupported.  {@code description} is the result's class.
     */
    public static void describe(AdminClient client, JsonObject args, Call call, String method, String description)
            throws Exception {
        String options = Character.toUpperCase(method.charAt(0)) + method.substring(1) + "Options";
        Method describe = method(client, method, "Collection", options);
        Object chosen = options(describe, 1);
        boolean asked = args.get("include_authorized_operations").getAsBoolean();
        Method include = Reflect.method(chosen.getClass(), "includeAuthorizedOperations", boolean.class);
        if (asked && include == null) {
            call.unsupported.add("include_authorized_operations");
        } else if (asked) {
            include.invoke(chosen, true);
        }
        List<String> groups = strings(args.getAsJsonArray("groups"));
        Object result = describe.invoke(client, groups, chosen);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> futures =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("describedGroups").invoke(result);
        for (String group : groups) {
            JsonObject entry = entry(group);
            Object described = resolve(entry, futures.get(group));
            if (described != null) {
                described(entry.getAsJsonObject("fields"), described);
            }
            call.resources.add(entry);
        }
        for (String field : new String[] {"state", "members", "coordinator", "partition_assignor"}) {
            call.resultFields.add(field);
        }
        if (Reflect.method(Class.forName("org.apache.kafka.clients.admin." + description),
                           "authorizedOperations") != null) {
            call.resultFields.add("authorized_operations");
        }
    }

    /** A group description's fields (a classic group's assignor is its protocolData). */
    private static void described(JsonObject fields, Object description) {
        fields.addProperty("state", state(description));
        fields.addProperty("partition_assignor", String.valueOf(get(description, "partitionAssignor", "protocolData")));
        Object node = get(description, "coordinator");
        if (node != null) {
            fields.addProperty("coordinator", (Number) get(node, "id"));
        }
        JsonArray members = new JsonArray();
        for (Object member : (Collection<?>) get(description, "members")) {
            JsonObject item = new JsonObject();
            item.addProperty("member_id", String.valueOf(get(member, "consumerId", "memberId")));
            item.addProperty("client_id", String.valueOf(get(member, "clientId")));
            item.addProperty("host", String.valueOf(get(member, "host")));
            Object instance = get(member, "groupInstanceId");
            item.addProperty("group_instance_id", instance == null ? null : instance.toString());
            Object assignment = get(member, "assignment");
            if (assignment != null) {
                item.add("assignment", assigned(assignment));
            }
            members.add(item);
        }
        fields.add("members", members);
        Object subtopologies = get(description, "subtopologies");
        if (subtopologies instanceof Collection) {
            fields.add("subtopologies", subtopologies((Collection<?>) subtopologies));
        }
        if (Reflect.method(description.getClass(), "authorizedOperations") != null) {
            fields.add("authorized_operations", names((Collection<?>) get(description, "authorizedOperations")));
        }
    }

    /**
     * A member's assignment as "topic:partition" names; a streams member's (StreamsGroupMemberAssignment) is
     * its active tasks, "subtopology:partition".
     */
    private static JsonArray assigned(Object assignment) {
        JsonArray names = new JsonArray();
        Object partitions = get(assignment, "topicPartitions");
        if (partitions instanceof Collection) {
            for (Object partition : (Collection<?>) partitions) {
                names.add(name((TopicPartition) partition));
            }
        }
        Object tasks = get(assignment, "activeTasks");
        if (tasks instanceof Collection) {
            for (Object task : (Collection<?>) tasks) {
                for (Object partition : (Collection<?>) get(task, "partitions")) {
                    names.add(get(task, "subtopologyId") + ":" + partition);
                }
            }
        }
        return names;
    }

    /** A streams group's topology: each subtopology's id and source topics. */
    private static JsonArray subtopologies(Collection<?> described) {
        JsonArray items = new JsonArray();
        for (Object subtopology : described) {
            JsonObject item = new JsonObject();
            item.addProperty("subtopology_id", String.valueOf(get(subtopology, "subtopologyId")));
            item.add("source_topics", names((Collection<?>) get(subtopology, "sourceTopics")));
            items.add(item);
        }
        return items;
    }
}
