#include "core/report.h"

#include "core/architecture.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace vl {

namespace {

std::string jsonString(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    return out + '"';
}

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\n") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + '"';
}

// A plain-text table with columns padded to their widest cell (UTF-8 aware enough for ×, ÷).
std::string textTable(const std::vector<std::vector<std::string>> &rows)
{
    auto width = [](const std::string &s) {
        return std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
    };
    std::vector<std::ptrdiff_t> widths;
    for (const auto &row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths.push_back(0);
            widths[i] = std::max(widths[i], width(row[i]));
        }
    std::string out;
    for (const auto &row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size())
                line += std::string(static_cast<std::size_t>(widths[i] - width(row[i]) + 2), ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + '\n';
    }
    return out;
}

std::string markdownTable(const std::vector<std::vector<std::string>> &rows)
{
    std::string out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        out += '|';
        for (const auto &cell : rows[r])
            out += ' ' + cell + " |";
        out += '\n';
        if (r == 0) {
            out += '|';
            for (std::size_t i = 0; i < rows[r].size(); ++i)
                out += "---|";
            out += '\n';
        }
    }
    return out;
}

std::string csvTable(const std::vector<std::vector<std::string>> &rows)
{
    std::string out;
    for (const auto &row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + csvField(row[i]);
        out += '\n';
    }
    return out;
}

std::string renderRows(const std::vector<std::vector<std::string>> &rows, Format format)
{
    switch (format) {
    case Format::Markdown: return markdownTable(rows);
    case Format::Csv: return csvTable(rows);
    case Format::Table:
    case Format::Json: break;
    }
    return textTable(rows);
}

// The tool a user reads the measure with.
std::string_view reading(Measure measure)
{
    switch (measure) {
    case Measure::Allocated: return "torch.cuda.max_memory_allocated";
    case Measure::Reserved: return "torch.cuda.max_memory_reserved";
    case Measure::NvidiaSmi: break;
    }
    return "nvidia-smi";
}

std::string verdictLine(const Report &r)
{
    if (!r.gpu)
        return {};
    const Bytes headroom = r.gpu->capacity - r.required();
    return r.gpu->name + " (" + formatBytes(r.gpu->capacity, r.units) + "): "
        + (headroom >= 0 ? "fits, " + formatBytes(headroom, r.units) + " to spare"
                         : "does NOT fit, " + formatBytes(-headroom, r.units) + " short")
        + " (by the " + std::string(toString(r.fitRule)) + ", as " + std::string(reading(r.scenario.overhead.measure))
        + " reads it)"
        + (runsPrecision(*r.gpu, r.scenario.precision) ? ""
                                                       : "; it has no FP8 tensor cores, so FP8 will not run on it");
}

std::string solveLine(const SolveAnswer &s)
{
    if (s.value == 0)
        return s.kind + ": nothing fits";
    if (s.kind == "min-gpus")
        return s.kind + ": " + std::to_string(s.gpus) + " GPUs (" + std::to_string(s.value) + " data-parallel)";
    return s.kind + ": " + std::to_string(s.value);
}

std::string reportJson(const Report &r)
{
    const Breakdown &b = r.breakdown;
    std::ostringstream out;
    out << "{\n  \"parameters\": {\"total\": " << b.totalParams << ", \"trainable\": " << b.trainableParams << "},\n";
    out << "  \"per_gpu\": {";
    for (Component c : kComponents)
        out << jsonString(idString(c)) << ": " << b.component(c) << ", ";
    out << "\"total\": " << b.total << ", \"peak\": " << r.peak
        << ", \"peak_phase\": " << jsonString(idString(r.peakPhase)) << ", \"between_steps\": " << r.betweenSteps
        << ", \"measure\": " << jsonString(toString(r.scenario.overhead.measure)) << "},\n";
    out << "  \"items\": [\n";
    for (std::size_t i = 0; i < r.items.size(); ++i) {
        const ExplainedItem &item = r.items[i];
        out << "    {\"id\": " << jsonString(idString(item.id))
            << ", \"component\": " << jsonString(idString(componentOf(item.id))) << ", \"bytes\": " << item.bytes
            << ", \"host_bytes\": " << item.hostBytes << ", \"formula\": " << jsonString(item.formula) << '}'
            << (i + 1 < r.items.size() ? "," : "") << '\n';
    }
    out << "  ],\n  \"host\": {\"total\": " << b.host << ", \"per_node\": " << hostPerNode(r.scenario, b.host)
        << ", \"gpus_per_node\": " << r.scenario.gpusOnNode() << "},\n";
    out << "  \"pipeline\": {\"stage\": " << b.stage << ", \"micro_batches_in_flight\": " << b.microBatchesInFlight
        << ", \"chunk_passes_in_flight\": " << b.chunkPassesInFlight << "},\n";
    out << "  \"units\": " << jsonString(unitSymbol(r.units));
    if (r.gpu) {
        out << ",\n  \"gpu\": {\"id\": " << jsonString(r.gpu->id) << ", \"capacity_bytes\": " << r.gpu->capacity
            << ", \"fit_by\": " << jsonString(toString(r.fitRule))
            << ", \"fits\": " << (r.required() <= r.gpu->capacity ? "true" : "false")
            << ", \"headroom_bytes\": " << r.gpu->capacity - r.required()
            << ", \"runs_precision\": " << (runsPrecision(*r.gpu, r.scenario.precision) ? "true" : "false") << '}';
    }
    if (r.solve) {
        out << ",\n  \"solve\": {\"kind\": " << jsonString(r.solve->kind) << ", \"value\": " << r.solve->value;
        if (r.solve->kind == "min-gpus")
            out << ", \"gpus\": " << r.solve->gpus;
        out << '}';
    }
    out << "\n}\n";
    return out.str();
}

} // namespace

std::optional<Format> parseFormat(std::string_view text)
{
    if (text == "table")
        return Format::Table;
    if (text == "json")
        return Format::Json;
    if (text == "markdown" || text == "md")
        return Format::Markdown;
    if (text == "csv")
        return Format::Csv;
    return std::nullopt;
}

std::string_view componentTitle(Component c)
{
    constexpr std::array<std::string_view, kComponentCount> titles{"Parameters", "Gradients", "Optimizer states",
                                                                   "Activations", "Overhead"};
    return titles[static_cast<int>(c)];
}

bool runsPrecision(const GpuPreset &gpu, Precision precision)
{
    return precision != Precision::Fp8 || gpu.fp8;
}

Report makeReport(const Scenario &s, Units units, std::optional<GpuPreset> gpu, FitRule fitRule)
{
    Report r;
    r.scenario = s;
    r.breakdown = estimate(s);
    const StepTimeline timeline = stepTimeline(r.breakdown);
    r.peak = timeline.peak();
    r.peakPhase = timeline.peakPhase();
    r.betweenSteps = timeline.beforeTheStep();
    r.fitRule = fitRule;
    r.items = explain(s, units);
    r.gpu = std::move(gpu);
    r.units = units;
    return r;
}

std::string renderReport(const Report &r, Format format)
{
    if (format == Format::Json)
        return reportJson(r);
    const Breakdown &b = r.breakdown;
    std::vector<std::vector<std::string>> rows{{"component", "item", "size", "formula"}};
    for (const ExplainedItem &item : r.items) {
        // An item that lives in CPU memory shows its size there.
        const std::string size = item.livesInCpuMemory() ? "CPU " + formatBytes(item.hostBytes, r.units)
                                                         : formatBytes(item.bytes, r.units);
        rows.push_back(
            {std::string(componentTitle(componentOf(item.id))), std::string(idString(item.id)), size, item.formula});
    }
    if (format == Format::Csv) {
        rows.push_back({"total", "total", formatBytes(b.total, r.units), ""});
        return renderRows(rows, format);
    }
    std::string out;
    out += "Parameters: " + formatCount(b.totalParams) + " total, " + formatCount(b.trainableParams) + " trainable\n";
    if (r.scenario.pipelineParallel > 1)
        out += "Reported: pipeline stage " + std::to_string(b.stage) + " (the most loaded), "
            + std::to_string(b.microBatchesInFlight) + " micro-batch(es) in flight"
            + (r.scenario.virtualStages > 1
                   ? ", " + std::to_string(b.chunkPassesInFlight) + " of their passes through the "
                       + std::to_string(r.scenario.virtualStages) + " model chunks (interleaved 1F1B)"
                   : "")
            + (r.scenario.gradAccum == 0 ? " (--grad-accum not given: one per stage, the 1F1B pipeline full)\n" : "\n");
    out += '\n' + renderRows(rows, format) + '\n';
    std::vector<std::vector<std::string>> totals{{"component", "per GPU"}};
    for (Component c : kComponents)
        if (c != Component::Overhead || r.scenario.overhead.reserveCounted())
            totals.push_back({std::string(componentTitle(c)), formatBytes(b.component(c), r.units)});
    totals.push_back({"Total", formatBytes(b.total, r.units)});
    totals.push_back(
        {r.peakPhase == StepPhase::StartUp ? "Peak (at start-up)" : "Step peak", formatBytes(r.peak, r.units)});
    totals.push_back({"Between steps", formatBytes(r.betweenSteps, r.units)});
    if (b.host > 0) {
        const std::int64_t gpus = r.scenario.gpusOnNode();
        totals.push_back({"CPU memory (offloaded or paged)", formatBytes(b.host, r.units)});
        totals.push_back({"CPU memory per node (" + std::to_string(gpus) + (gpus == 1 ? " GPU)" : " GPUs)"),
                          formatBytes(hostPerNode(r.scenario, b.host), r.units)});
    }
    out += renderRows(totals, format);
    if (r.gpu)
        out += '\n' + verdictLine(r) + '\n';
    if (r.solve)
        out += solveLine(*r.solve) + '\n';
    return out;
}

std::string renderSweep(std::string_view field, const std::vector<SweepPoint> &points, Units units,
                        std::optional<GpuPreset> gpu, FitRule rule, Format format)
{
    if (format == Format::Json) {
        std::string out = "{\"field\": " + jsonString(field) + ", \"fit_by\": " + jsonString(toString(rule))
            + ", \"points\": [\n";
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Breakdown &b = points[i].breakdown;
            out += "  {\"value\": " + std::to_string(points[i].value);
            for (Component c : kComponents)
                out += ", " + jsonString(idString(c)) + ": " + std::to_string(b.component(c));
            out += ", \"total\": " + std::to_string(b.total) + ", \"peak\": " + std::to_string(points[i].peak);
            if (gpu)
                out += std::string(", \"fits\": ") + (points[i].required(rule) <= gpu->capacity ? "true" : "false");
            out += std::string("}") + (i + 1 < points.size() ? "," : "") + '\n';
        }
        return out + "]}\n";
    }
    // CSV carries exact bytes for scripts; table and Markdown are for reading.
    const bool exact = format == Format::Csv;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{std::string(field)};
    for (Component c : kComponents)
        header.push_back(exact ? std::string(idString(c)) + "_bytes" : std::string(componentTitle(c)));
    header.push_back(exact ? "total_bytes" : "Total");
    header.push_back(exact ? "peak_bytes" : "Peak");
    if (gpu)
        header.push_back("fits " + gpu->id + " by the " + std::string(toString(rule)));
    rows.push_back(std::move(header));
    rows.reserve(points.size() + 1);
    for (const SweepPoint &p : points) {
        std::vector<std::string> row{std::to_string(p.value)};
        for (Component c : kComponents)
            row.push_back(exact ? std::to_string(p.breakdown.component(c))
                                : formatBytes(p.breakdown.component(c), units));
        row.push_back(exact ? std::to_string(p.breakdown.total) : formatBytes(p.breakdown.total, units));
        row.push_back(exact ? std::to_string(p.peak) : formatBytes(p.peak, units));
        if (gpu)
            row.push_back(p.required(rule) <= gpu->capacity ? "yes" : "no");
        rows.push_back(std::move(row));
    }
    return renderRows(rows, format);
}

std::string renderLadder(Bytes start, FitRule rule, const std::vector<LadderStep> &steps, const GpuPreset &gpu,
                         Units units, Format format)
{
    // Where every lever is not enough, what more GPUs would do, as the GUI's verdict says: the
    // last step's sharded states fall with their count (0: no count helps).
    const bool beyondLevers = format != Format::Csv && !steps.empty() && !steps.back().fits;
    const LadderStep *last = beyondLevers ? &steps.back() : nullptr;
    const std::int64_t ranks = last ? minDataParallel(last->scenario, gpu.capacity, rule) : 0;
    const std::int64_t gpus = ranks > 0 ? gpusWithDataParallel(last->scenario, ranks) : 0;
    if (format == Format::Json) {
        std::string out = "{\"gpu\": " + jsonString(gpu.id) + ", \"capacity_bytes\": " + std::to_string(gpu.capacity)
            + ", \"fit_by\": " + jsonString(toString(rule)) + ", \"start_bytes\": " + std::to_string(start)
            + ", \"min_data_parallel\": " + std::to_string(ranks) + ", \"min_gpus\": " + std::to_string(gpus)
            + ", \"steps\": [\n";
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const LadderStep &s = steps[i];
            out += "  {\"lever\": " + jsonString(idString(s.lever)) + ", \"change\": " + jsonString(s.change)
                + ", \"required_bytes\": " + std::to_string(s.required)
                + ", \"saving_bytes\": " + std::to_string(s.saving) + ", \"fits\": " + (s.fits ? "true" : "false")
                + ", \"cost\": " + jsonString(s.cost) + ", \"grew\": " + jsonString(s.grew) + "}"
                + (i + 1 < steps.size() ? "," : "") + "\n";
        }
        return out + "]}\n";
    }
    const bool exact = format == Format::Csv;
    auto size = [&](Bytes b) { return exact ? std::to_string(b) : formatBytes(b, units); };
    const std::string required(toString(rule));
    std::vector<std::vector<std::string>> rows{{"step", "change", exact ? required + "_bytes" : required,
                                                exact ? "saving_bytes" : "saving", "fits " + gpu.id, "cost"}};
    rows.push_back({"0", "start", size(start), size(0), start <= gpu.capacity ? "yes" : "no", ""});
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const LadderStep &s = steps[i];
        // A lever that costs memory says which parts grew.
        rows.push_back({std::to_string(i + 1), s.change, size(s.required), size(s.saving), s.fits ? "yes" : "no",
                        s.grew.empty() ? s.cost : s.cost + "; costs memory: " + s.grew});
    }
    std::string out = renderRows(rows, format);
    if (beyondLevers) {
        out += "\nEven with every lever pulled it does not fit " + gpu.name + ".\n";
        if (ranks > 0)
            out += "With the levers above it fits over " + std::to_string(ranks) + " data-parallel GPUs with "
                + shardingLabel(last->scenario) + " (" + std::to_string(gpus) + " GPUs in all; --solve min-gpus).\n";
        // The levers act on the step; a start-up that holds the whole model is beyond them.
        if (rule == FitRule::Peak && stepTimeline(last->breakdown).peakAtStartUp())
            out += "Its peak is the run's start-up: DeepSpeed holds the whole model on each GPU before ZeRO-3 "
                   "partitions it, which no lever of the step lowers"
                + std::string(last->scenario.zeroInitDecides()
                                  ? "; built under zero.Init (--zero-init yes) the model is never whole on one GPU.\n"
                                  : ": a 4-bit model always reaches DeepSpeed whole.\n");
    }
    return out;
}

std::string renderModelList(const PresetCatalog &catalog, Format format)
{
    if (format == Format::Json) {
        std::string out = "[\n";
        for (std::size_t i = 0; i < catalog.models.size(); ++i) {
            const ModelPreset &m = catalog.models[i];
            out += "  {\"id\": " + jsonString(m.id) + ", \"name\": " + jsonString(m.name)
                + ", \"derived_params\": " + std::to_string(totalParameters(m.arch)) + ", \"published_params\": "
                + std::to_string(m.publishedParams) + ", \"user\": " + (m.user ? "true" : "false")
                + ", \"source\": " + jsonString(m.source) + "}" + (i + 1 < catalog.models.size() ? "," : "") + "\n";
        }
        return out + "]\n";
    }
    std::vector<std::vector<std::string>> rows{{"id", "name", "derived params", "published", "origin"}};
    for (const ModelPreset &m : catalog.models)
        rows.push_back({m.id, m.name, formatCount(totalParameters(m.arch)),
                        m.publishedParams ? formatCount(m.publishedParams) : "-",
                        m.user ? (m.shadowsBuiltin ? "user (shadows built-in)" : "user") : "built-in"});
    return renderRows(rows, format);
}

std::string renderGpuList(const PresetCatalog &catalog, Units units, Format format)
{
    if (format == Format::Json) {
        std::string out = "[\n";
        for (std::size_t i = 0; i < catalog.gpus.size(); ++i) {
            const GpuPreset &g = catalog.gpus[i];
            out += "  {\"id\": " + jsonString(g.id) + ", \"name\": " + jsonString(g.name)
                + ", \"label\": " + jsonString(g.label) + ", \"capacity_bytes\": " + std::to_string(g.capacity)
                + ", \"compute_capability\": "
                + (g.computeCapability > 0 ? std::to_string(g.computeCapability) : "null") + ", \"verified\": "
                + (g.verified ? "true" : "false") + "}" + (i + 1 < catalog.gpus.size() ? "," : "") + "\n";
        }
        return out + "]\n";
    }
    std::vector<std::vector<std::string>> rows{
        {"id", "name", "label", "reported capacity", "compute capability", "verified", "origin"}};
    for (const GpuPreset &g : catalog.gpus)
        rows.push_back({g.id, g.name, g.label, formatBytes(g.capacity, units),
                        g.computeCapability > 0 ? std::to_string(g.computeCapability) : "", g.verified ? "yes" : "no",
                        g.user ? (g.shadowsBuiltin ? "user (shadows built-in)" : "user") : "built-in"});
    return renderRows(rows, format);
}

} // namespace vl
