package org.containerfs.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Ellipse2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * The scaling chart: per-record open+list time and per-record retained heap against the record count
 * (log scale), one line per series. Plain Java2D, headless, written with ImageIO.
 */
final class Chart {
    private static final int PANEL_W = 520;
    private static final int H = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 50;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0x9467bd), new Color(0xff7f0e)};

    private Chart() {}

    static void write(List<Context.ScalingPoint> points, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(PANEL_W * 2, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        Map<String, List<Context.ScalingPoint>> series = new LinkedHashMap<>();
        for (Context.ScalingPoint p : points) {
            series.computeIfAbsent(p.series(), k -> new ArrayList<>()).add(p);
        }
        panel(g, 0, series, "open + list: time per record (µs)", p -> p.nanosPerRecord() / 1e3, Double.NaN);
        panel(g, PANEL_W, series, "retained heap per record (bytes)", Context.ScalingPoint::bytesPerRecord, 32);
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private static void panel(Graphics2D g, int x0, Map<String, List<Context.ScalingPoint>> series, String title,
            ToDoubleFunction<Context.ScalingPoint> value, double targetLine) {
        int plotW = PANEL_W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        double minN = Double.MAX_VALUE;
        double maxN = 0;
        double maxY = Double.isNaN(targetLine) ? 0 : targetLine;
        for (List<Context.ScalingPoint> s : series.values()) {
            for (Context.ScalingPoint p : s) {
                minN = Math.min(minN, p.records());
                maxN = Math.max(maxN, p.records());
                maxY = Math.max(maxY, value.applyAsDouble(p));
            }
        }
        double lo = Math.floor(Math.log10(minN));
        double hi = Math.max(lo + 1, Math.ceil(Math.log10(maxN)));
        maxY = niceCeiling(maxY * 1.15);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.setColor(Color.BLACK);
        g.drawString(title, x0 + LEFT, TOP - 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        // axes, grid and tick labels
        for (int k = 0; k <= 5; k++) {
            double y = maxY * k / 5;
            int py = TOP + plotH - (int) Math.round(plotH * k / 5.0);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(x0 + LEFT, py, x0 + LEFT + plotW, py);
            g.setColor(Color.DARK_GRAY);
            String label = maxY >= 10 ? String.format("%.0f", y) : String.format("%.2f", y);
            g.drawString(label, x0 + LEFT - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        for (double e = lo; e <= hi; e++) {
            int px = x0 + LEFT + (int) Math.round(plotW * (e - lo) / (hi - lo));
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(px, TOP, px, TOP + plotH);
            g.setColor(Color.DARK_GRAY);
            String label = String.format("10^%d", (int) e);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) / 2, TOP + plotH + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(x0 + LEFT, TOP, plotW, plotH);
        g.drawString("records in the container (log scale)", x0 + LEFT + plotW / 2 - 100, TOP + plotH + 40);
        if (!Double.isNaN(targetLine)) {
            int py = TOP + plotH - (int) Math.round(plotH * targetLine / maxY);
            g.setColor(new Color(0x888888));
            g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            g.draw(new Line2D.Double(x0 + LEFT, py, x0 + LEFT + plotW, py));
            g.drawString("target " + (int) targetLine, x0 + LEFT + plotW - 70, py - 5);
        }
        int colour = 0;
        int legendY = TOP + 16;
        for (Map.Entry<String, List<Context.ScalingPoint>> s : series.entrySet()) {
            Color c = COLORS[colour++ % COLORS.length];
            g.setColor(c);
            g.setStroke(new BasicStroke(2.2f));
            double px0 = Double.NaN;
            double py0 = Double.NaN;
            for (Context.ScalingPoint p : s.getValue()) {
                double v = value.applyAsDouble(p);
                double px = x0 + LEFT + plotW * (Math.log10(p.records()) - lo) / (hi - lo);
                double py = TOP + plotH - plotH * v / maxY;
                if (!Double.isNaN(px0)) {
                    g.draw(new Line2D.Double(px0, py0, px, py));
                }
                g.fill(new Ellipse2D.Double(px - 4, py - 4, 8, 8));
                String label = v >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
                int width = g.getFontMetrics().stringWidth(label);
                boolean nearRightEdge = px + 6 + width > x0 + LEFT + plotW;
                g.drawString(label, nearRightEdge ? (int) px - 6 - width : (int) px + 6, (int) py - 6);
                px0 = px;
                py0 = py;
            }
            g.drawString(s.getKey(), x0 + LEFT + 10, legendY);
            legendY += 16;
        }
        g.setStroke(new BasicStroke(1f));
    }

    /**
     * The cores chart of scenario 10: one panel per query, records per second against Spark cores, beside the
     * single-thread walk through the provider (dashed) and perfect scaling from one core (dotted).
     */
    static void writeCores(List<Context.CoresPoint> points, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<Context.CoresPoint>> queries = new LinkedHashMap<>();
        for (Context.CoresPoint p : points) {
            queries.computeIfAbsent(p.query(), k -> new ArrayList<>()).add(p);
        }
        int panelW = 400;
        BufferedImage image = new BufferedImage(panelW * queries.size(), H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        int x0 = 0;
        for (Map.Entry<String, List<Context.CoresPoint>> q : queries.entrySet()) {
            coresPanel(g, x0, panelW, q.getKey(), q.getValue());
            x0 += panelW;
        }
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        try (var out = Files.newOutputStream(png)) {
            ImageIO.write(image, "png", out);
        }
    }

    private static void coresPanel(Graphics2D g, int x0, int panelW, String query, List<Context.CoresPoint> points) {
        int plotW = panelW - LEFT - 30;
        int plotH = H - TOP - BOTTOM;
        double walk = Double.NaN;
        double oneCore = Double.NaN;
        int maxCores = 1;
        double maxY = 0;
        List<Context.CoresPoint> spark = new ArrayList<>();
        for (Context.CoresPoint p : points) {
            if (p.cores() == 0) {
                walk = p.recordsPerSecond();
            } else {
                spark.add(p);
                maxCores = Math.max(maxCores, p.cores());
                if (p.cores() == 1) {
                    oneCore = p.recordsPerSecond();
                }
            }
            maxY = Math.max(maxY, p.recordsPerSecond());
        }
        spark.sort(java.util.Comparator.comparingInt(Context.CoresPoint::cores));
        if (!Double.isNaN(oneCore)) {
            maxY = Math.max(maxY, oneCore * maxCores);
        }
        double top = niceCeiling(maxY / 1e3 * 1.35) * 1e3; // headroom for the legend
        int cores = maxCores;
        int left = x0 + LEFT;
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.setColor(Color.BLACK);
        g.drawString(query, left, TOP - 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int k = 0; k <= 5; k++) {
            int py = TOP + plotH - (int) Math.round(plotH * k / 5.0);
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(left, py, left + plotW, py);
            g.setColor(Color.DARK_GRAY);
            String label = String.format("%.0f", top * k / 5 / 1e3);
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        // cores spread over the middle 80% of the axis; one core alone in the middle
        java.util.function.IntToDoubleFunction xOf = c -> left + plotW * (cores == 1 ? 0.5 : (c - 1) / (double) (cores - 1) * 0.8 + 0.1);
        java.util.function.DoubleUnaryOperator yOf = v -> TOP + plotH - plotH * v / top;
        for (int c = 1; c <= maxCores; c++) {
            String label = String.valueOf(c);
            g.setColor(Color.DARK_GRAY);
            g.drawString(label, (int) xOf.applyAsDouble(c) - g.getFontMetrics().stringWidth(label) / 2, TOP + plotH + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, TOP, plotW, plotH);
        g.drawString("Spark cores (local[n])", left + plotW / 2 - 60, TOP + plotH + 40);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString("thousand records/s", -(TOP + plotH / 2 + 55), x0 + 16);
        rotated.dispose();
        int legendY = TOP + 16;
        if (!Double.isNaN(walk)) {
            g.setColor(COLORS[1]);
            g.setStroke(new BasicStroke(1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {7, 5}, 0));
            double py = yOf.applyAsDouble(walk);
            g.draw(new Line2D.Double(left, py, left + plotW, py));
            g.drawString(String.format("single-thread walk %.0f k", walk / 1e3), left + 10, legendY);
            legendY += 16;
        }
        if (!Double.isNaN(oneCore) && maxCores > 1) {
            g.setColor(new Color(0x888888));
            g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {2, 4}, 0));
            g.draw(new Line2D.Double(xOf.applyAsDouble(1), yOf.applyAsDouble(oneCore), xOf.applyAsDouble(maxCores),
                    yOf.applyAsDouble(oneCore * maxCores)));
            g.drawString("perfect scaling from 1 core", left + 10, legendY);
            legendY += 16;
        }
        g.setColor(COLORS[0]);
        g.setStroke(new BasicStroke(2.2f));
        double px0 = Double.NaN;
        double py0 = Double.NaN;
        for (Context.CoresPoint p : spark) {
            double px = xOf.applyAsDouble(p.cores());
            double py = yOf.applyAsDouble(p.recordsPerSecond());
            if (!Double.isNaN(px0)) {
                g.draw(new Line2D.Double(px0, py0, px, py));
            }
            g.fill(new Ellipse2D.Double(px - 4, py - 4, 8, 8));
            String label = String.format("%.0f k", p.recordsPerSecond() / 1e3);
            boolean last = p == spark.get(spark.size() - 1) && spark.size() > 1;
            g.drawString(label, last ? (int) px - 8 - g.getFontMetrics().stringWidth(label) : (int) px + 8, (int) py + 16);
            px0 = px;
            py0 = py;
        }
        g.drawString("containerfs data source", left + 10, legendY);
        g.setStroke(new BasicStroke(1f));
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
