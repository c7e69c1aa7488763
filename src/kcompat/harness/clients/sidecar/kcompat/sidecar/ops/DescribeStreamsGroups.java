package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;

/** describeStreamsGroups (KIP-1071, 4.1+), by reflection, as {@link Groups#describe} describes groups. */
public final class DescribeStreamsGroups extends AdminOperation {
    private static final int STREAMS_GROUP_DESCRIBE = 89;

    public DescribeStreamsGroups() {
        super(STREAMS_GROUP_DESCRIBE);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Groups.describe(client, args, call, "describeStreamsGroups", "StreamsGroupDescription");
    }
}
