package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Outcomes;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * electLeaders(ElectionType, Set) (KIP-460, 2.4+), by reflection: an older release (which may have
 * electPreferredLeaders, op elect_preferred_leaders) lacks it, a NoSuchMethodException in the result.
 */
public final class ElectLeaders extends AdminOperation {
    private static final int ELECT_LEADERS = 43;

    public ElectLeaders() {
        super(ELECT_LEADERS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        String type = args.get("election_type").getAsString().toUpperCase();
        Set<TopicPartition> partitions = new LinkedHashSet<TopicPartition>();
        for (JsonElement element : args.getAsJsonArray("partitions")) {
            JsonObject item = element.getAsJsonObject();
            partitions.add(new TopicPartition(item.get("topic").getAsString(), item.get("partition").getAsInt()));
        }
        Class<?> electionType;
        try {
            electionType = Class.forName("org.apache.kafka.common.ElectionType");
        } catch (ClassNotFoundException e) {
            throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no electLeaders(ElectionType, Set): it arrived in 2.4 (KIP-460)");
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object election = Enum.valueOf((Class<Enum>) electionType, type);
        Object result = AdminClient.class.getMethod("electLeaders", electionType, Set.class)
            .invoke(client, election, partitions);
        KafkaFuture<?> all = (KafkaFuture<?>) result.getClass().getMethod("partitions").invoke(result);
        JsonObject whole = Json.outcome("*", all);
        for (TopicPartition partition : partitions) {
            String label = partition.topic() + "-" + partition.partition();
            if (whole.get("error_code").getAsInt() != 0) {
                JsonObject entry = Json.outcome(label, all);
                call.resources.add(entry);
                continue;
            }
            Map<?, ?> answers = (Map<?, ?>) all.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Object answer = answers.get(partition); // Optional<Throwable>
            Object present = answer == null ? null : Outcomes.member(answer, "isPresent");
            Throwable error = Boolean.TRUE.equals(present) ? (Throwable) Outcomes.member(answer, "get") : null;
            call.resources.add(Outcomes.entry(label, error));
        }
    }
}
