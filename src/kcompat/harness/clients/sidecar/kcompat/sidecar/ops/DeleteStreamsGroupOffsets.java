package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import org.apache.kafka.clients.admin.AdminClient;

/** deleteStreamsGroupOffsets (KIP-1071, 4.1+), by reflection, as {@link DeleteConsumerGroupOffsets} calls its consumer-group counterpart. */
public final class DeleteStreamsGroupOffsets extends AdminOperation {
    private static final int OFFSET_DELETE = 47;

    public DeleteStreamsGroupOffsets() {
        super(OFFSET_DELETE);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        DeleteConsumerGroupOffsets.delete(client, args, call, "deleteStreamsGroupOffsets");
    }
}
