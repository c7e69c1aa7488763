package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.Acls;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** deleteAcls: each filter's result carries the labels of the bindings it deleted (those without an error). */
public final class DeleteAcls extends AdminOperation {
    private static final int DELETE_ACLS = 31;

    public DeleteAcls() {
        super(DELETE_ACLS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<Object> filters = new ArrayList<Object>();
        List<JsonObject> asked = new ArrayList<JsonObject>();
        for (JsonElement element : args.getAsJsonArray("filters")) {
            asked.add(element.getAsJsonObject());
            filters.add(Acls.filter(element.getAsJsonObject(), call));
        }
        Object result = AdminClient.class.getMethod("deleteAcls", Collection.class).invoke(client, filters);
        @SuppressWarnings("unchecked")
        Map<Object, KafkaFuture<?>> values =
            (Map<Object, KafkaFuture<?>>) result.getClass().getMethod("values").invoke(result);
        for (int i = 0; i < filters.size(); i++) {
            KafkaFuture<?> future = values.get(filters.get(i));
            JsonObject entry = Json.outcome(Acls.label(asked.get(i)), future);
            if (entry.get("exception").isJsonNull()) {
                List<Object> deleted = new ArrayList<Object>();
                for (Object one : (Collection<?>) Reflect.invoke(future.get(), "values")) {
                    if (Reflect.invoke(one, "exception") == null) {
                        deleted.add(Reflect.invoke(one, "binding"));
                    }
                }
                entry.getAsJsonObject("fields").add("deleted", Acls.labels(deleted));
            }
            call.resources.add(entry);
        }
    }
}
