package kcompat.sidecar;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import kcompat.sidecar.ops.ApiVersions;
import kcompat.sidecar.ops.Close;
import kcompat.sidecar.ops.CreateAcls;
import kcompat.sidecar.ops.CreatePartitions;
import kcompat.sidecar.ops.CreateTopics;
import kcompat.sidecar.ops.DescribeConfigs;
import kcompat.sidecar.ops.DescribeTopics;
import kcompat.sidecar.ops.ListTopics;
import kcompat.sidecar.ops.Methods;
import kcompat.sidecar.ops.Version;

/**
 * Op name -> handler.  A new admin call is one class under ops/ and one line here; the harness's
 * contract test reads these lines and checks every op the Python JavaClient sends is registered.
 */
public final class Operations {
    public static final Map<String, Operation> ALL;

    static {
        Map<String, Operation> ops = new LinkedHashMap<String, Operation>();
        // About this kafka-clients release itself (no connection).
        ops.put("version", new Version());
        ops.put("api_versions", new ApiVersions());
        ops.put("methods", new Methods());
        ops.put("close", new Close());
        // Admin calls against a cluster.
        ops.put("create_topics", new CreateTopics());
        ops.put("create_partitions", new CreatePartitions());
        ops.put("describe_configs", new DescribeConfigs());
        ops.put("list_topics", new ListTopics());
        ops.put("create_acls", new CreateAcls());
        ops.put("describe_topics", new DescribeTopics());
        ALL = Collections.unmodifiableMap(ops);
    }

    private Operations() {
    }
}
