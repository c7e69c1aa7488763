package kcompat.sidecar.ops;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.protocol.ApiKeys;

/** CreateTopics, with the KIP-525 result fields (config, numPartitions, replicationFactor) where this release has them. */
public final class CreateTopics extends AdminOperation {
    public CreateTopics() {
        super(ApiKeys.CREATE_TOPICS.id);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<NewTopic> topics = new ArrayList<NewTopic>();
        for (JsonElement element : args.getAsJsonArray("topics")) {
            topics.add(newTopic(element.getAsJsonObject()));
        }
        CreateTopicsOptions options = new CreateTopicsOptions().validateOnly(args.get("validate_only").getAsBoolean());
        CreateTopicsResult result = client.createTopics(topics, options);
        Method config = Reflect.method(CreateTopicsResult.class, "config", String.class);
        Method partitions = Reflect.method(CreateTopicsResult.class, "numPartitions", String.class);
        Method replication = Reflect.method(CreateTopicsResult.class, "replicationFactor", String.class);
        if (partitions != null) {
            call.resultFields.add("num_partitions");
        }
        if (replication != null) {
            call.resultFields.add("replication_factor");
        }
        if (config != null) {
            call.resultFields.add("configs");
        }
        for (Map.Entry<String, KafkaFuture<Void>> item : result.values().entrySet()) {
            JsonObject entry = Json.outcome(item.getKey(), item.getValue());
            JsonObject fields = entry.getAsJsonObject("fields");
            resultField(fields, "num_partitions", partitions, result, item.getKey());
            resultField(fields, "replication_factor", replication, result, item.getKey());
            resultField(fields, "configs", config, result, item.getKey());
            call.resources.add(entry);
        }
    }

    private static void resultField(JsonObject fields, String name, Method getter, Object result, String topic) {
        if (getter == null) {
            return;
        }
        try {
            Object value = ((KafkaFuture<?>) getter.invoke(result, topic)).get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (value instanceof Config) {
                JsonArray entries = new JsonArray();
                for (ConfigEntry entry : ((Config) value).entries()) {
                    entries.add(Json.configEntry(entry));
                }
                fields.add(name, entries);
            } else {
                fields.add(name, new Gson().toJsonTree(value));
            }
        } catch (Exception e) {
            fields.add(name, JsonNull.INSTANCE);
            fields.addProperty(name + ".exception", Reflect.unwrap(e).getClass().getName());
        }
    }

    private static NewTopic newTopic(JsonObject topic) throws Exception {
        String name = topic.get("name").getAsString();
        NewTopic created;
        if (topic.has("assignments") && !topic.get("assignments").isJsonNull()) {
            Map<Integer, List<Integer>> assignments = new HashMap<Integer, List<Integer>>();
            for (Map.Entry<String, JsonElement> item : topic.getAsJsonObject("assignments").entrySet()) {
                assignments.put(Integer.valueOf(item.getKey()), Json.ints(item.getValue().getAsJsonArray()));
            }
            created = new NewTopic(name, assignments);
        } else if (topic.get("partitions").isJsonNull() || topic.get("replication_factor").isJsonNull()) {
            created = withBrokerDefaults(name, topic);
        } else {
            created = new NewTopic(name, topic.get("partitions").getAsInt(), topic.get("replication_factor").getAsShort());
        }
        Map<String, String> configs = new HashMap<String, String>();
        for (Map.Entry<String, JsonElement> item : topic.getAsJsonObject("configs").entrySet()) {
            configs.put(item.getKey(), item.getValue().getAsString());
        }
        if (!configs.isEmpty()) {
            created.configs(configs);
        }
        return created;
    }

    /** KIP-464 (2.4): NewTopic(String, Optional<Integer>, Optional<Short>) means "the broker's default". */
    private static NewTopic withBrokerDefaults(String name, JsonObject topic) throws Exception {
        Constructor<NewTopic> ctor;
        try {
            ctor = NewTopic.class.getConstructor(String.class, Optional.class, Optional.class);
        } catch (NoSuchMethodException e) {
            throw new UnsupportedOperationException("this kafka-clients has no NewTopic with broker defaults (KIP-464)");
        }
        Object partitions = topic.get("partitions").isJsonNull()
            ? Optional.empty() : Optional.of(topic.get("partitions").getAsInt());
        Object replication = topic.get("replication_factor").isJsonNull()
            ? Optional.empty() : Optional.of(topic.get("replication_factor").getAsShort());
        return ctor.newInstance(name, partitions, replication);
    }
}
