package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * electPreferredLeaders(Collection) (KIP-183, 2.2 to 2.8: deprecated by electLeaders in 2.4, removed in 3.0),
 * by reflection: one future per partition; a release without it is a NoSuchMethodException in the result.
 */
public final class ElectPreferredLeaders extends AdminOperation {
    private static final int ELECT_LEADERS = 43; // ELECT_PREFERRED_LEADERS in the releases that have the call

    public ElectPreferredLeaders() {
        super(ELECT_LEADERS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method elect = AdminClient.class.getMethod("electPreferredLeaders", Collection.class);
        List<TopicPartition> partitions = new ArrayList<TopicPartition>();
        for (JsonElement element : args.getAsJsonArray("partitions")) {
            JsonObject item = element.getAsJsonObject();
            partitions.add(new TopicPartition(item.get("topic").getAsString(), item.get("partition").getAsInt()));
        }
        Object result = elect.invoke(client, partitions);
        java.lang.reflect.Method partitionResult = result.getClass().getMethod("partitionResult", TopicPartition.class);
        for (TopicPartition partition : partitions) {
            KafkaFuture<?> future = (KafkaFuture<?>) partitionResult.invoke(result, partition);
            call.resources.add(Json.outcome(partition.topic() + "-" + partition.partition(), future));
        }
    }
}
