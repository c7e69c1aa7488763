package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * deleteTopics by name, or by topic id through TopicCollection (3.1+; Uuid 2.8+), both by reflection: a release
 * without the id overload records NoSuchMethodException, and names' values() became topicNameValues() in 3.1.
 */
public final class DeleteTopics extends AdminOperation {
    static final String TOPIC_COLLECTION = "org.apache.kafka.common.TopicCollection";
    private static final int DELETE_TOPICS = 20;

    public DeleteTopics() {
        super(DELETE_TOPICS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> ids = strings(args, "topic_ids");
        if (ids.isEmpty()) {
            List<String> names = strings(args, "names");
            Object result = AdminClient.class.getMethod("deleteTopics", Collection.class).invoke(client, names);
            add(call, values(result, "topicNameValues"));
            return;
        }
        Object topics = byIds(ids);
        if (topics == null) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no deleteTopics(TopicCollection) (topic ids arrived in 3.1)"));
            return;
        }
        Class<?> collection = Class.forName(TOPIC_COLLECTION);
        Object result = AdminClient.class.getMethod("deleteTopics", collection).invoke(client, topics);
        add(call, values(result, "topicIdValues"));
    }

    /** TopicCollection.ofTopicIds of UUID texts (3.1+); null where the release has no TopicCollection. */
    static Object byIds(List<String> ids) throws Exception {
        Class<?> collection;
        Class<?> uuid;
        try {
            collection = Class.forName(TOPIC_COLLECTION);
            uuid = Class.forName("org.apache.kafka.common.Uuid");
        } catch (ClassNotFoundException e) {
            return null;
        }
        List<Object> topicIds = new ArrayList<Object>();
        for (String id : ids) {
            java.util.UUID parsed = java.util.UUID.fromString(id); // Kafka's Uuid.fromString reads base64 only
            topicIds.add(uuid.getConstructor(long.class, long.class)
                .newInstance(parsed.getMostSignificantBits(), parsed.getLeastSignificantBits()));
        }
        return collection.getMethod("ofTopicIds", Collection.class).invoke(null, topicIds);
    }

    /** The result's map of futures: {@code newer}() where the release has it, values() otherwise. */
    private static Map<?, ?> values(Object result, String newer) throws Exception {
        try {
            return (Map<?, ?>) result.getClass().getMethod(newer).invoke(result);
        } catch (NoSuchMethodException e) {
            return (Map<?, ?>) result.getClass().getMethod("values").invoke(result);
        }
    }

    private static void add(Call call, Map<?, ?> futures) {
        for (Map.Entry<?, ?> item : futures.entrySet()) {
            call.resources.add(Json.outcome(label(item.getKey()), (KafkaFuture<?>) item.getValue()));
        }
    }

    /** A topic's name, or its id as a UUID's usual text (as every client names it), not Uuid's base64. */
    static String label(Object key) {
        if (key instanceof String) {
            return (String) key;
        }
        Object most = Reflect.invoke(key, "getMostSignificantBits");
        Object least = Reflect.invoke(key, "getLeastSignificantBits");
        if (!(most instanceof Long) || !(least instanceof Long)) {
            return String.valueOf(key);
        }
        return new java.util.UUID((Long) most, (Long) least).toString();
    }

    static List<String> strings(JsonObject args, String name) {
        List<String> values = new ArrayList<String>();
        if (args.has(name) && args.get(name).isJsonArray()) {
            for (JsonElement element : args.getAsJsonArray(name)) {
                values.add(element.getAsString());
            }
        }
        return values;
    }
}
