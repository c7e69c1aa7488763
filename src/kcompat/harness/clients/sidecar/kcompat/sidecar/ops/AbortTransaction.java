package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.TopicPartition;

/** abortTransaction (KIP-664, kafka-clients 2.8+), by reflection: an AbortTransactionSpec of the partition. */
public final class AbortTransaction extends AdminOperation {
    private static final int WRITE_TXN_MARKERS = 27;

    public AbortTransaction() {
        super(WRITE_TXN_MARKERS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method abort = Values.adminMethod("abortTransaction", 1);
        TopicPartition partition = new TopicPartition(args.get("topic").getAsString(),
                                                      args.get("partition").getAsInt());
        Object spec = abort.getParameterTypes()[0]
            .getConstructor(TopicPartition.class, long.class, short.class, int.class)
            .newInstance(partition, args.get("producer_id").getAsLong(), args.get("producer_epoch").getAsShort(),
                         args.get("coordinator_epoch").getAsInt());
        Object result = abort.invoke(client, spec);
        call.resources.add(Json.outcome(partition.topic() + ":" + partition.partition(),
                                        Values.future(result, "all")));
    }
}
