package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/**
 * listConfigResources(Set, ListConfigResourcesOptions) (KIP-1142, kafka-clients 4.1+), by reflection: each
 * listed resource as "TYPE:name"; an older release has no such method (NoSuchMethodException, as data).
 */
public final class ListConfigResources extends AdminOperation {
    private static final int LIST_CONFIG_RESOURCES = 74; // ListClientMetricsResources before 4.1, same key

    public ListConfigResources() {
        super(LIST_CONFIG_RESOURCES);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method method = Values.adminMethod("listConfigResources", 2);
        Set<ConfigResource.Type> types = new HashSet<ConfigResource.Type>();
        if (args.has("resource_types")) {
            for (JsonElement name : args.getAsJsonArray("resource_types")) {
                types.add(ConfigResource.Type.valueOf(name.getAsString()));
            }
        }
        Object options = Class.forName("org.apache.kafka.clients.admin.ListConfigResourcesOptions")
            .getConstructor().newInstance();
        Object result = method.invoke(client, types, options);
        KafkaFuture<?> all = Values.future(result, "all");
        for (Object listed : (Collection<?>) all.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            ConfigResource resource = (ConfigResource) listed;
            call.resources.add(Values.listed(resource.type().name() + ":" + resource.name(), new JsonObject()));
        }
    }
}
