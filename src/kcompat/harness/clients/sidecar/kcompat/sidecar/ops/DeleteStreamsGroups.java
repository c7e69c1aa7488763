package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import org.apache.kafka.clients.admin.AdminClient;

/** deleteStreamsGroups (KIP-1071, 4.1+), by reflection, as {@link DeleteConsumerGroups} calls its consumer-group counterpart. */
public final class DeleteStreamsGroups extends AdminOperation {
    private static final int DELETE_GROUPS = 42;

    public DeleteStreamsGroups() {
        super(DELETE_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        DeleteConsumerGroups.delete(client, args, call, "deleteStreamsGroups");
    }
}
