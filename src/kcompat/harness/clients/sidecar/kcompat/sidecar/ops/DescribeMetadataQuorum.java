package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Collection;
import java.util.TreeSet;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** describeMetadataQuorum (KIP-836, kafka-clients 3.3+), by reflection: leader, epoch, voters, observers. */
public final class DescribeMetadataQuorum extends AdminOperation {
    private static final int DESCRIBE_QUORUM = 55;

    public DescribeMetadataQuorum() {
        super(DESCRIBE_QUORUM);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Object result = Values.adminMethod("describeMetadataQuorum", 0).invoke(client);
        KafkaFuture<?> future = Values.future(result, "quorumInfo");
        JsonObject entry = Json.outcome("__cluster_metadata-0", future);
        Object quorum = Values.outcome(entry, future);
        for (String field : new String[] {"leader_id", "leader_epoch", "high_watermark", "voters", "observers"}) {
            call.resultFields.add(field);
        }
        if (quorum != null) {
            JsonObject fields = Values.getters(quorum, "leaderId", "leader_id", "leaderEpoch", "leader_epoch",
                "highWatermark", "high_watermark");
            fields.add("voters", ids(Reflect.invoke(quorum, "voters")));
            fields.add("observers", ids(Reflect.invoke(quorum, "observers")));
            entry.add("fields", fields);
        }
        call.resources.add(entry);
    }

    /** The sorted replica ids of a list of ReplicaState. */
    private static JsonArray ids(Object replicas) {
        TreeSet<Integer> sorted = new TreeSet<Integer>();
        if (replicas instanceof Collection) {
            for (Object replica : (Collection<?>) replicas) {
                sorted.add(((Number) Reflect.invoke(replica, "replicaId")).intValue());
            }
        }
        JsonArray out = new JsonArray();
        for (Integer id : sorted) {
            out.add(id);
        }
        return out;
    }
}
