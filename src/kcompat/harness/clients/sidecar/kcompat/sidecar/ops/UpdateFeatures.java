package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * updateFeatures (KIP-584, kafka-clients 2.7+), by reflection.  A FeatureUpdate is made with KIP-778's
 * UpgradeType where the release has it (3.3+; 4.0 dropped the boolean constructor), else with allowDowngrade;
 * validateOnly (3.3+) is left out, and reported, where the options lack it.
 */
public final class UpdateFeatures extends AdminOperation {
    private static final int UPDATE_FEATURES = 57;
    private static final String ADMIN = "org.apache.kafka.clients.admin.";

    public UpdateFeatures() {
        super(UPDATE_FEATURES);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Method update = Values.adminMethod("updateFeatures", 2);
        String feature = args.get("feature").getAsString();
        short level = args.get("max_version_level").getAsShort();
        String upgradeType = args.get("upgrade_type").getAsString();
        Class<?> featureUpdate = Class.forName(ADMIN + "FeatureUpdate");
        Object value;
        try {
            Class<?> types = Class.forName(ADMIN + "FeatureUpdate$UpgradeType");
            Object type = types.getMethod("valueOf", String.class).invoke(null, upgradeType);
            value = featureUpdate.getConstructor(short.class, types).newInstance(level, type);
        } catch (ClassNotFoundException e) {
            value = featureUpdate.getConstructor(short.class, boolean.class)
                .newInstance(level, !"UPGRADE".equals(upgradeType));
        }
        Class<?> optionsType = update.getParameterTypes()[1];
        Object options = optionsType.getConstructor().newInstance();
        if (args.get("validate_only").getAsBoolean()) {
            try {
                optionsType.getMethod("validateOnly", boolean.class).invoke(options, true);
            } catch (NoSuchMethodException e) {
                call.unsupported.add("validate_only");
                throw new UnsupportedOperationException("kafka-clients has no UpdateFeaturesOptions.validateOnly; "
                    + "nothing was sent");
            }
        }
        Object result = update.invoke(client, Collections.singletonMap(feature, value), options);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> values =
            (Map<String, KafkaFuture<?>>) result.getClass().getMethod("values").invoke(result);
        call.resources.add(Json.outcome(feature, values.get(feature)));
    }
}
