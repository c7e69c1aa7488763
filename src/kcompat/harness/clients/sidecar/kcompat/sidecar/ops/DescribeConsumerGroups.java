package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Groups;
import org.apache.kafka.clients.admin.AdminClient;

/** describeConsumerGroups (2.0+), by reflection, as {@link Groups#describe} describes groups. */
public final class DescribeConsumerGroups extends AdminOperation {
    private static final int DESCRIBE_GROUPS = 15;

    public DescribeConsumerGroups() {
        super(DESCRIBE_GROUPS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Groups.describe(client, args, call, "describeConsumerGroups", "ConsumerGroupDescription");
    }
}
