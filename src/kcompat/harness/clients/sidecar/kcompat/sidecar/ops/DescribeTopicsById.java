package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeTopics(TopicCollection.ofTopicIds(...)) (3.1+), by reflection: a release without TopicCollection records
 * NoSuchMethodException.  Each result is named by its id as a UUID's usual text, like every client here.
 */
public final class DescribeTopicsById extends AdminOperation {
    private static final int METADATA = 3;

    public DescribeTopicsById() {
        super(METADATA);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Object topics = DeleteTopics.byIds(DeleteTopics.strings(args, "topic_ids"));
        if (topics == null) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no describeTopics(TopicCollection) (topic ids arrived in 3.1)"));
            return;
        }
        Class<?> collection = Class.forName(DeleteTopics.TOPIC_COLLECTION);
        Object result = AdminClient.class.getMethod("describeTopics", collection).invoke(client, topics);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("topicIdValues").invoke(result);
        call.resultFields.add("name");
        call.resultFields.add("partitions");
        for (Map.Entry<?, ?> item : futures.entrySet()) {
            KafkaFuture<?> future = (KafkaFuture<?>) item.getValue();
            JsonObject entry = Json.outcome(DeleteTopics.label(item.getKey()), future);
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                Object description = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                JsonObject fields = entry.getAsJsonObject("fields");
                fields.addProperty("name", String.valueOf(Reflect.invoke(description, "name")));
                fields.addProperty("partitions", ((List<?>) Reflect.invoke(description, "partitions")).size());
            }
            call.resources.add(entry);
        }
    }
}
