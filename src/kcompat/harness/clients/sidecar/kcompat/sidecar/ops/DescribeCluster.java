package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;

/**
 * describeCluster: nodes, controller and cluster id (0.11+), and KIP-430's authorized operations where the
 * release has includeAuthorizedOperations (2.3+); the result leaves authorized_operations out where it has none.
 */
public final class DescribeCluster extends AdminOperation {
    private static final int METADATA = 3;

    public DescribeCluster() {
        super(METADATA);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        DescribeClusterOptions options = new DescribeClusterOptions();
        boolean wanted = args.get("include_authorized_operations").getAsBoolean();
        Method include = Reflect.method(DescribeClusterOptions.class, "includeAuthorizedOperations", boolean.class);
        if (include != null) {
            include.invoke(options, wanted);
        } else if (wanted) {
            call.unsupported.add("include_authorized_operations");
        }
        DescribeClusterResult result = client.describeCluster(options);
        JsonObject entry = Json.outcome("cluster", result.nodes());
        call.resources.add(entry);
        for (String field : new String[] {"nodes", "controller", "cluster_id"}) {
            call.resultFields.add(field);
        }
        Method operations = Reflect.method(DescribeClusterResult.class, "authorizedOperations");
        if (operations != null) {
            call.resultFields.add("authorized_operations");
        }
        if (entry.get("error_code").getAsInt() != 0 || !entry.get("exception").isJsonNull()) {
            return;
        }
        JsonObject fields = entry.getAsJsonObject("fields");
        List<Integer> ids = new ArrayList<Integer>();
        for (Node node : result.nodes().get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            ids.add(node.id());
        }
        Collections.sort(ids);
        JsonArray nodes = new JsonArray();
        for (Integer id : ids) {
            nodes.add(id);
        }
        fields.add("nodes", nodes);
        Node controller = result.controller().get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        fields.addProperty("controller", controller == null || controller.id() < 0 ? null : controller.id());
        fields.addProperty("cluster_id", result.clusterId().get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        if (operations != null) {
            Object granted = ((KafkaFuture<?>) operations.invoke(result)).get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            fields.add("authorized_operations", granted == null ? JsonNull.INSTANCE : names((Collection<?>) granted));
        }
    }

    private static JsonArray names(Collection<?> values) {
        List<String> sorted = new ArrayList<String>();
        for (Object value : values) {
            sorted.add(String.valueOf(value));
        }
        Collections.sort(sorted);
        JsonArray out = new JsonArray();
        for (String name : sorted) {
            out.add(name);
        }
        return out;
    }
}
