package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import org.apache.kafka.clients.admin.AdminClient;

/** alterStreamsGroupOffsets (KIP-1071, 4.1+), by reflection, as {@link AlterConsumerGroupOffsets} calls its consumer-group counterpart. */
public final class AlterStreamsGroupOffsets extends AdminOperation {
    private static final int OFFSET_COMMIT = 8;

    public AlterStreamsGroupOffsets() {
        super(OFFSET_COMMIT);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        AlterConsumerGroupOffsets.alter(client, args, call, "alterStreamsGroupOffsets");
    }
}
