package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * addRaftVoter(int, Uuid, Set, AddRaftVoterOptions) (KIP-853, kafka-clients 3.9+), by reflection: the voter's
 * outcome; an older release has no such method (NoSuchMethodException, as data).
 */
public final class AddRaftVoter extends AdminOperation {
    private static final int ADD_RAFT_VOTER = 80;

    public AddRaftVoter() {
        super(ADD_RAFT_VOTER);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        int voterId = args.get("voter_id").getAsInt();
        java.lang.reflect.Method method = Values.adminMethod("addRaftVoter", 4);
        Class<?> endpoint = Class.forName("org.apache.kafka.clients.admin.RaftVoterEndpoint");
        Set<Object> endpoints = new HashSet<Object>();
        for (JsonElement element : args.getAsJsonArray("endpoints")) {
            JsonObject e = element.getAsJsonObject();
            endpoints.add(endpoint.getConstructor(String.class, String.class, int.class)
                .newInstance(e.get("name").getAsString(), e.get("host").getAsString(), e.get("port").getAsInt()));
        }
        Object result = method.invoke(client, voterId, uuid(args.get("voter_directory_id").getAsString()),
            endpoints, options("AddRaftVoterOptions", args));
        call.resources.add(Json.outcome("voter:" + voterId, Values.future(result, "all")));
    }

    /** A Uuid (kafka-clients 2.8+) from a UUID's usual text. */
    static Object uuid(String text) throws Exception {
        java.util.UUID parsed = java.util.UUID.fromString(text);
        return Class.forName("org.apache.kafka.common.Uuid").getConstructor(long.class, long.class)
            .newInstance(parsed.getMostSignificantBits(), parsed.getLeastSignificantBits());
    }

    /** {@code <Name>Options} with {@code setClusterId} where the arguments give one. */
    static Object options(String className, JsonObject args) throws Exception {
        Object options = Class.forName("org.apache.kafka.clients.admin." + className).getConstructor().newInstance();
        String clusterId = Json.text(args, "cluster_id");
        if (clusterId != null) {
            options.getClass().getMethod("setClusterId", Optional.class).invoke(options, Optional.of(clusterId));
        }
        return options;
    }
}

