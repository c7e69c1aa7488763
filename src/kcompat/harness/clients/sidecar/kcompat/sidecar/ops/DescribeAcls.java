package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.util.Collection;
import kcompat.sidecar.Acls;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** describeAcls of one AclBindingFilter: the filter's result carries the labels of the bindings it matched. */
public final class DescribeAcls extends AdminOperation {
    private static final int DESCRIBE_ACLS = 29;

    public DescribeAcls() {
        super(DESCRIBE_ACLS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        JsonObject acl = args.getAsJsonObject("filter");
        Object filter = Acls.filter(acl, call);
        Object result = AdminClient.class.getMethod("describeAcls", filter.getClass()).invoke(client, filter);
        KafkaFuture<?> values = (KafkaFuture<?>) result.getClass().getMethod("values").invoke(result);
        JsonObject entry = Json.outcome(Acls.label(acl), values);
        if (entry.get("exception").isJsonNull()) {
            entry.getAsJsonObject("fields").add("bindings", Acls.labels((Collection<?>) values.get()));
        }
        call.resources.add(entry);
    }
}
