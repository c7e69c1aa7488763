package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.ApiKeys;

/** DescribeConfigs, with synonyms (KIP-226) and KIP-569 type/documentation where this release has them. */
public final class DescribeConfigs extends AdminOperation {
    public DescribeConfigs() {
        super(ApiKeys.DESCRIBE_CONFIGS.id);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<ConfigResource> resources = new ArrayList<ConfigResource>();
        for (JsonElement element : args.getAsJsonArray("targets")) {
            JsonObject resource = element.getAsJsonObject();
            ConfigResource.Type type =
                ConfigResource.Type.valueOf(resource.get("resource_type").getAsString().toUpperCase());
            resources.add(new ConfigResource(type, resource.get("name").getAsString()));
        }
        DescribeConfigsOptions options = new DescribeConfigsOptions();
        option(options, "includeSynonyms", "include_synonyms", args, call);
        option(options, "includeDocumentation", "include_documentation", args, call);
        Map<ConfigResource, KafkaFuture<Config>> values = client.describeConfigs(resources, options).values();
        LinkedHashSet<String> seen = new LinkedHashSet<String>();
        for (ConfigResource resource : resources) {
            String label = resource.type().name().toLowerCase() + ":" + resource.name();
            JsonObject entry = Json.outcome(label, values.get(resource));
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                JsonArray configs = new JsonArray();
                for (ConfigEntry config : values.get(resource).get().entries()) {
                    JsonObject converted = Json.configEntry(config);
                    seen.addAll(converted.keySet());
                    configs.add(converted);
                }
                entry.getAsJsonObject("fields").add("configs", configs);
            }
            call.resources.add(entry);
        }
        for (String field : seen) {
            call.resultFields.add("configs." + field);
        }
    }

    /** Set a boolean option this release may lack; asked for but absent, it is reported as unsupported. */
    private static void option(Object options, String setterName, String argName, JsonObject args, Call call)
            throws Exception {
        boolean wanted = args.get(argName).getAsBoolean();
        Method setter = Reflect.method(options.getClass(), setterName, boolean.class);
        if (setter != null) {
            setter.invoke(options, wanted);
        } else if (wanted) {
            call.unsupported.add(argName);
        }
    }
}
