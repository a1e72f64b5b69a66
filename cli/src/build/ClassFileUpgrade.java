import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Build step of the runnable jar (JDK 24+, run as a source file by the cli module's build): rewrites every class
 * file older than Java 6 (version 50) as version 52, with the stack maps that version requires.
 *
 * <p>Why: the JDK's AOT cache (JEP 483), which the launcher makes so that the tool starts in a fraction of the time,
 * holds no class file below version 50 ("Old class has been linked"): those need the old inferencing verifier at
 * every start. picocli 4.7 is compiled for Java 5, so its classes were read and verified from the jar at every
 * start, about 0.1-0.2 s of a mount's 0.8 s. The method bodies are re-emitted unchanged; the class-file API
 * computes their stack maps; each rewritten class is then checked by the same API's verifier, and the build fails
 * on any error, so a class the JVM would refuse never reaches the jar.
 *
 * <p>Usage: {@code java ClassFileUpgrade.java <jar>}; the jar is replaced only when all went well.
 */
public final class ClassFileUpgrade {
    private static final int FIRST_VERSION_WITH_STACK_MAPS = 50;
    private static final int TARGET_VERSION = 52;

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: java ClassFileUpgrade.java <jar>");
        }
        Path jar = Path.of(args[0]);
        Map<String, byte[]> entries = readEntries(jar);
        ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                ClassHierarchyResolver.defaultResolver().orElse(
                        ClassHierarchyResolver.ofResourceParsing(desc -> classBytes(entries, desc)))));
        int upgraded = 0;
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            byte[] bytes = e.getValue();
            if (!e.getKey().endsWith(".class") || majorVersion(bytes) >= FIRST_VERSION_WITH_STACK_MAPS) {
                continue;
            }
            byte[] rewritten = classFile.transformClass(classFile.parse(bytes),
                    ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                            .andThen(ClassTransform.endHandler(b -> b.withVersion(TARGET_VERSION, 0))));
            List<VerifyError> errors = classFile.verify(rewritten);
            if (!errors.isEmpty()) {
                throw new IllegalStateException(jar + ": " + e.getKey() + " does not verify once rewritten as version "
                        + TARGET_VERSION + ": " + errors);
            }
            e.setValue(rewritten);
            upgraded++;
        }
        if (upgraded > 0) {
            writeEntries(jar, entries);
        }
        System.out.println(jar.getFileName() + ": " + upgraded + " class files before Java 6 rewritten as version "
                + TARGET_VERSION + " (AOT-cacheable)");
    }

    private static int majorVersion(byte[] classBytes) {
        return classBytes.length < 8 ? Integer.MAX_VALUE : (classBytes[6] & 0xff) << 8 | (classBytes[7] & 0xff);
    }

    private static InputStream classBytes(Map<String, byte[]> entries, ClassDesc desc) {
        String name = desc.descriptorString();
        byte[] bytes = entries.get(name.substring(1, name.length() - 1) + ".class");
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    private static Map<String, byte[]> readEntries(Path jar) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>(); // the jar's order kept: the manifest stays first
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (entries.put(e.getName(), in.readAllBytes()) != null) {
                    throw new IOException(jar + ": entry " + e.getName() + " appears twice");
                }
            }
        }
        return entries;
    }

    private static void writeEntries(Path jar, Map<String, byte[]> entries) throws IOException {
        Path tmp = jar.resolveSibling(jar.getFileName() + ".upgrading");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(tmp))) {
            entries.forEach((name, bytes) -> {
                try {
                    out.putNextEntry(new ZipEntry(name));
                    out.write(bytes);
                    out.closeEntry();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
