package kcompat.sidecar;

import java.io.File;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Op name -> handler, found by name: op {@code create_topics} is the class {@code kcompat.sidecar.ops.CreateTopics},
 * an {@link Operation} with a public no-argument constructor.  A new admin call is one new class under ops/;
 * nothing here or in the protocol loop names it.
 */
public final class Operations {
    private static final String PACKAGE = "kcompat.sidecar.ops.";
    private static final Map<String, Operation> FOUND = new ConcurrentHashMap<String, Operation>();

    private Operations() {
    }

    /** The handler of {@code op}; an unknown op is an IllegalArgumentException naming the ops this sidecar has. */
    public static Operation find(String op) throws ReflectiveOperationException {
        Operation found = FOUND.get(op);
        if (found != null) {
            return found;
        }
        if (!op.matches("[a-z][a-z0-9]*(_[a-z0-9]+)*")) {
            throw unknown(op);
        }
        Class<?> cls;
        try {
            cls = Class.forName(PACKAGE + className(op));
        } catch (ClassNotFoundException e) {
            throw unknown(op);
        }
        if (!Operation.class.isAssignableFrom(cls)) {
            throw unknown(op);
        }
        found = (Operation) cls.getConstructor().newInstance();
        FOUND.put(op, found);
        return found;
    }

    /** {@code create_topics} -> {@code CreateTopics}. */
    static String className(String op) {
        StringBuilder name = new StringBuilder();
        for (String part : op.split("_")) {
            name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return name.toString();
    }

    /** {@code CreateTopics} -> {@code create_topics}. */
    static String opName(String className) {
        return className.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }

    private static IllegalArgumentException unknown(String op) {
        return new IllegalArgumentException("unknown op " + op + "; this sidecar runs " + known());
    }

    /** The ops compiled beside this class (its classes directory), for the error naming an unknown op. */
    static Set<String> known() {
        Set<String> ops = new TreeSet<String>();
        try {
            File dir = new File(new File(Operations.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
                PACKAGE.replace('.', File.separatorChar));
            String[] names = dir.list();
            for (String name : names == null ? new String[0] : names) {
                if (name.endsWith(".class") && name.indexOf('$') < 0) {
                    ops.add(opName(name.substring(0, name.length() - ".class".length())));
                }
            }
        } catch (Exception e) {
            // a sidecar run from a jar: the error names the op alone
        }
        return ops;
    }
}
