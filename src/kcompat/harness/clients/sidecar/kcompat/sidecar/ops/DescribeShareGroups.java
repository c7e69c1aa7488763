package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;

/** describeShareGroups (KIP-932, 4.0+), by reflection, as {@link Groups#describe} describes groups. */
public final class DescribeShareGroups extends AdminOperation {
    private static final int SHARE_GROUP_DESCRIBE = 77;

    public DescribeShareGroups() {
        super(SHARE_GROUP_DESCRIBE);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Groups.describe(client, args, call, "describeShareGroups", "ShareGroupDescription");
    }
}
