package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * removeRaftVoter(int, Uuid, RemoveRaftVoterOptions) (KIP-853, kafka-clients 3.9+), by reflection: the voter's
 * outcome; an older release has no such method (NoSuchMethodException, as data).
 */
public final class RemoveRaftVoter extends AdminOperation {
    private static final int REMOVE_RAFT_VOTER = 81;

    public RemoveRaftVoter() {
        super(REMOVE_RAFT_VOTER);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        int voterId = args.get("voter_id").getAsInt();
        java.lang.reflect.Method method = Values.adminMethod("removeRaftVoter", 3);
        Object result = method.invoke(client, voterId, AddRaftVoter.uuid(args.get("voter_directory_id").getAsString()),
            AddRaftVoter.options("RemoveRaftVoterOptions", args));
        call.resources.add(Json.outcome("voter:" + voterId, Values.future(result, "all")));
    }
}
