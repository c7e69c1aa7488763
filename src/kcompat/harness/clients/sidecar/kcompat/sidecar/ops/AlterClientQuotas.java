package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kcompat.sidecar.AdminMethods;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Quotas;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * alterClientQuotas (KIP-546, kafka-clients 2.6+) of one entity, by reflection: an older release has no such
 * method, which is its NoSuchMethodException.  A JSON null value removes that quota.
 */
public final class AlterClientQuotas extends AdminOperation {
    private static final int ALTER_CLIENT_QUOTAS = 49;
    private static final String QUOTA = "org.apache.kafka.common.quota.";

    public AlterClientQuotas() {
        super(ALTER_CLIENT_QUOTAS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method alter = AdminMethods.find("alterClientQuotas", 2);
        Class<?> optionsType = alter.getParameterTypes()[1];
        Map<String, String> entity = new TreeMap<String, String>();
        for (Map.Entry<String, JsonElement> item : args.getAsJsonObject("entity").entrySet()) {
            entity.put(item.getKey(), item.getValue().isJsonNull() ? null : item.getValue().getAsString());
        }
        Class<?> opType = Class.forName(QUOTA + "ClientQuotaAlteration$Op");
        List<Object> ops = new ArrayList<Object>();
        for (Map.Entry<String, JsonElement> item : args.getAsJsonObject("quotas").entrySet()) {
            Double value = item.getValue().isJsonNull() ? null : item.getValue().getAsDouble();
            ops.add(opType.getConstructor(String.class, Double.class).newInstance(item.getKey(), value));
        }
        Class<?> entityType = Class.forName(QUOTA + "ClientQuotaEntity");
        Object target = entityType.getConstructor(Map.class).newInstance(entity);
        Object alteration = Class.forName(QUOTA + "ClientQuotaAlteration")
            .getConstructor(entityType, Collection.class).newInstance(target, ops);
        Object options = optionsType.getConstructor().newInstance();
        optionsType.getMethod("validateOnly", boolean.class).invoke(options, args.get("validate_only").getAsBoolean());
        Object result = alter.invoke(client, Collections.singletonList(alteration), options);
        @SuppressWarnings("unchecked")
        Map<Object, KafkaFuture<?>> values =
            (Map<Object, KafkaFuture<?>>) result.getClass().getMethod("values").invoke(result);
        for (Map.Entry<Object, KafkaFuture<?>> item : values.entrySet()) {
            call.resources.add(Json.outcome(Quotas.label(item.getKey()), item.getValue()));
        }
    }
}
