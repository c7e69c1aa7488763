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
import org.apache.kafka.common.protocol.ApiKeys;

/** CreateAcls: ResourcePattern with a pattern type from 2.0 (KIP-290), Resource (literal only) before. */
public final class CreateAcls extends AdminOperation {
    public CreateAcls() {
        super(ApiKeys.CREATE_ACLS.id);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<Object> bindings = new ArrayList<Object>();
        List<String> labels = new ArrayList<String>();
        Class<?> bindingType = Class.forName("org.apache.kafka.common.acl.AclBinding");
        Class<?> entryType = Class.forName("org.apache.kafka.common.acl.AccessControlEntry");
        Class<?> operation = Class.forName("org.apache.kafka.common.acl.AclOperation");
        Class<?> permission = Class.forName("org.apache.kafka.common.acl.AclPermissionType");
        Class<?> resourceType = Class.forName("org.apache.kafka.common.resource.ResourceType");
        for (JsonElement element : args.getAsJsonArray("acls")) {
            JsonObject acl = element.getAsJsonObject();
            Object type = Reflect.enumValue(resourceType, acl.get("resource_type").getAsString());
            String name = acl.get("resource_name").getAsString();
            String pattern = acl.get("pattern").getAsString();
            Object resource;
            Class<?> resourceClass;
            try {
                resourceClass = Class.forName("org.apache.kafka.common.resource.ResourcePattern");
                Class<?> patternType = Class.forName("org.apache.kafka.common.resource.PatternType");
                resource = resourceClass.getConstructor(resourceType, String.class, patternType)
                    .newInstance(type, name, Reflect.enumValue(patternType, pattern));
            } catch (ClassNotFoundException e) {
                if (!"LITERAL".equals(pattern)) {
                    call.unsupported.add("pattern");
                }
                resourceClass = Class.forName("org.apache.kafka.common.resource.Resource");
                resource = resourceClass.getConstructor(resourceType, String.class).newInstance(type, name);
            }
            Object entry = entryType.getConstructor(String.class, String.class, operation, permission).newInstance(
                acl.get("principal").getAsString(), acl.get("host").getAsString(),
                Reflect.enumValue(operation, acl.get("operation").getAsString()),
                Reflect.enumValue(permission, acl.get("permission").getAsString()));
            bindings.add(bindingType.getConstructor(resourceClass, entryType).newInstance(resource, entry));
            labels.add(Acls.label(acl));
        }
        Object result = AdminClient.class.getMethod("createAcls", Collection.class).invoke(client, bindings);
        @SuppressWarnings("unchecked")
        Map<Object, KafkaFuture<Void>> values =
            (Map<Object, KafkaFuture<Void>>) result.getClass().getMethod("values").invoke(result);
        for (int i = 0; i < bindings.size(); i++) {
            call.resources.add(Json.outcome(labels.get(i), values.get(bindings.get(i))));
        }
    }
}
