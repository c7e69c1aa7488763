package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import kcompat.sidecar.AdminMethods;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Quotas;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeClientQuotas (KIP-546, kafka-clients 2.6+) of one filter component, by reflection: an older release
 * has no such method, which is its NoSuchMethodException.  The result carries entity label -> quotas.
 */
public final class DescribeClientQuotas extends AdminOperation {
    private static final int DESCRIBE_CLIENT_QUOTAS = 48;
    private static final String QUOTA = "org.apache.kafka.common.quota.";

    public DescribeClientQuotas() {
        super(DESCRIBE_CLIENT_QUOTAS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method describe = AdminMethods.find("describeClientQuotas", 1);
        Class<?> filterType = describe.getParameterTypes()[0];
        Class<?> component = Class.forName(QUOTA + "ClientQuotaFilterComponent");
        String type = args.get("entity_type").getAsString();
        String name = Json.text(args, "entity_name");
        Object one = name == null ? component.getMethod("ofDefaultEntity", String.class).invoke(null, type)
            : component.getMethod("ofEntity", String.class, String.class).invoke(null, type, name);
        boolean strict = args.get("strict").getAsBoolean();
        Object filter = filterType.getMethod(strict ? "containsOnly" : "contains", Collection.class)
            .invoke(null, Collections.singletonList(one));
        Object result = describe.invoke(client, filter);
        KafkaFuture<?> entities = (KafkaFuture<?>) result.getClass().getMethod("entities").invoke(result);
        JsonObject entry = Json.outcome(Quotas.label(Collections.singletonMap(type, name)), entities);
        if (entry.get("exception").isJsonNull()) {
            JsonObject found = new JsonObject();
            for (Map.Entry<?, ?> item : ((Map<?, ?>) entities.get()).entrySet()) {
                JsonObject values = new JsonObject();
                for (Map.Entry<?, ?> quota : ((Map<?, ?>) item.getValue()).entrySet()) {
                    values.addProperty(String.valueOf(quota.getKey()), (Number) quota.getValue());
                }
                found.add(Quotas.label(item.getKey()), values);
            }
            entry.getAsJsonObject("fields").add("entries", found);
        }
        call.resources.add(entry);
    }
}
