// vram-ledger-cli: the estimation core on the command line, for scripts, CI and tests.
// Exit codes: 0 success, 2 invalid input (one line on stderr naming the option), 3 unreadable file.

#include "core/advice.h"
#include "core/edits.h"
#include "core/fields.h"
#include "core/hfconfig.h"
#include "core/presets.h"
#include "core/report.h"
#include "core/scenariofile.h"
#include "core/solve.h"
#include "io/hubclient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QStandardPaths>

#include <cstdio>
#include <optional>
#include <string>

namespace {

enum ExitCode { Success = 0, InvalidInput = 2, UnreadableFile = 3 };

struct Failure {
    int code;
    std::string message;
};

[[noreturn]] void fail(const Failure &f)
{
    std::fprintf(stderr, "vram-ledger-cli: %s\n", f.message.c_str());
    std::exit(f.code);
}

Failure invalid(const vl::Error &error)
{
    const std::string where = error.file.empty() ? "--" + error.field + ": " + error.message : error.describe();
    return {InvalidInput, where};
}

std::string text(const QString &s)
{
    return s.toStdString();
}

std::string readOrFail(const std::string &path)
{
    auto content = vl::readTextFile(path);
    if (!content)
        fail({UnreadableFile, content.error().describe()});
    return *content;
}

// config.json of a model on the Hugging Face Hub, waited for; a failure ends the run with exit 3
// and what to do, a notice (a cached copy used) goes to stderr.
vl::HubResult fetchHubConfig(const vl::HubModelRef &ref, bool offline)
{
    vl::HubAccess access = vl::hubAccessFromEnvironment();
    access.offline = access.offline || offline;
    vl::HubClient client(access);
    vl::HubResult result;
    QEventLoop loop;
    QObject::connect(&client, &vl::HubClient::finished, &loop, [&](const vl::HubResult &r) {
        result = r;
        loop.quit();
    });
    client.fetch(ref);
    loop.exec();
    if (!result.ok())
        fail({UnreadableFile, "--hf-model: " + result.message.toStdString()});
    if (!result.message.isEmpty())
        std::fprintf(stderr, "vram-ledger-cli: --hf-model: %s\n", qPrintable(result.message));
    return result;
}

// "did you mean llama-3-70b? (see --list-models)", or "see --list-models" when nothing is close.
std::string suggestion(const std::vector<std::string> &similar, const char *listOption)
{
    const std::string guess = vl::didYouMean(similar);
    return guess.empty() ? std::string("see ") + listOption : guess + " (see " + listOption + ")";
}

// A GPU is a preset id, or a capacity such as 80GB, 24GiB or 81920MiB.
std::optional<vl::GpuPreset> resolveGpu(const vl::PresetCatalog &catalog, const std::string &spec)
{
    if (const vl::GpuPreset *gpu = catalog.findGpu(spec))
        return *gpu;
    if (const auto capacity = vl::parseSize(spec))
        return vl::customGpu(spec, *capacity);
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    // The same identity as vram-ledger (app/main.cpp): both read the user's presets from
    // one app-data folder.
    QCoreApplication::setOrganizationName(QStringLiteral("vram-ledger"));
    QCoreApplication::setApplicationName(QStringLiteral("vram-ledger"));
    QCoreApplication::setApplicationVersion(QStringLiteral(VL_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Estimate the GPU memory of one training step: parameters, gradients, optimizer states and activations."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption modelOpt(QStringLiteral("model"),
                                      QStringLiteral("Start from a model preset (see --list-models)."),
                                      QStringLiteral("ID"));
    const QCommandLineOption configOpt(QStringLiteral("config"),
                                       QStringLiteral("Start from a Hugging Face config.json or a model preset YAML."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption hfModelOpt(
        QStringLiteral("hf-model"),
        QStringLiteral("Start from a model on the Hugging Face Hub: its config.json, fetched (HF_TOKEN for gated "
                       "models, HF_ENDPOINT for a mirror), e.g. meta-llama/Llama-3.1-8B[@REVISION]."),
        QStringLiteral("ORG/NAME"));
    const QCommandLineOption offlineOpt(
        QStringLiteral("offline"),
        QStringLiteral("With --hf-model: use the copy fetched before, never the network (as HF_HUB_OFFLINE=1)."));
    const QCommandLineOption scenarioOpt(QStringLiteral("scenario"),
                                         QStringLiteral("Start from a scenario file (.vramledger.yaml)."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption gpuOpt(
        QStringLiteral("gpu"),
        QStringLiteral("GPU to check against: a preset id (see --list-gpus), which also sets --compute-capability "
                       "unless given, or a size like 80GB, 24GiB."),
        QStringLiteral("ID"));
    const QCommandLineOption solveOpt(
        QStringLiteral("solve"), QStringLiteral("Answer a question exactly for --gpu: max-batch, max-seq or min-gpus."),
        QStringLiteral("QUESTION"));
    const QCommandLineOption sweepOpt(
        QStringLiteral("sweep"),
        QStringLiteral("Vary one field: FIELD=FROM:TO[:STEP] (no STEP: doubling), e.g. seq=512:8192:512."),
        QStringLiteral("SPEC"));
    const QCommandLineOption ladderOpt(QStringLiteral("ladder"),
                                       QStringLiteral("Apply the article's levers one at a time until it fits --gpu."));
    const QCommandLineOption ladderOrderOpt(
        QStringLiteral("ladder-order"),
        QStringLiteral("The levers to try, in order: a comma list of zero, recompute, mixed-precision, smaller-batch "
                       "(default: the article's order)."),
        QStringLiteral("LIST"), QStringLiteral("zero,recompute,mixed-precision,smaller-batch"));
    const QCommandLineOption ladderGpusOpt(
        QStringLiteral("ladder-gpus"),
        QStringLiteral("GPUs the ZeRO lever may shard the states over (the context-parallel ones among them) when --dp "
                       "is 1 (default 8)."),
        QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption fitByOpt(QStringLiteral("fit-by"),
                                      QStringLiteral("What must fit the GPU, for the verdict and --solve: peak (the "
                                                     "most in use at any moment of the step, the default) or sum "
                                                     "(every part at once, an upper bound)."),
                                      QStringLiteral("RULE"), QString::fromUtf8(vl::toString(vl::kDefaultFitRule)));
    const QCommandLineOption unitsOpt(QStringLiteral("units"), QStringLiteral("Units for sizes: gib (default) or gb."),
                                      QStringLiteral("UNITS"), QStringLiteral("gib"));
    const QCommandLineOption formatOpt(QStringLiteral("format"),
                                       QStringLiteral("Output format: table, json, markdown or csv."),
                                       QStringLiteral("FORMAT"), QStringLiteral("table"));
    const QCommandLineOption presetsOpt(QStringLiteral("presets"),
                                        QStringLiteral("Read built-in presets from DIR instead of the installed ones."),
                                        QStringLiteral("DIR"));
    const QCommandLineOption listModelsOpt(
        QStringLiteral("list-models"),
        QStringLiteral("List model presets with derived and published parameter counts."));
    const QCommandLineOption listGpusOpt(QStringLiteral("list-gpus"),
                                         QStringLiteral("List GPU presets with their reported capacities."));
    for (const auto *option :
         {&modelOpt, &configOpt, &hfModelOpt, &offlineOpt, &scenarioOpt, &gpuOpt, &solveOpt, &sweepOpt, &ladderOpt,
          &ladderOrderOpt, &ladderGpusOpt, &fitByOpt, &unitsOpt, &formatOpt, &presetsOpt, &listModelsOpt, &listGpusOpt})
        parser.addOption(*option);
    for (const vl::FieldSpec &field : vl::scenarioFields())
        parser.addOption(
            QCommandLineOption(QString::fromUtf8(field.name.data(), qsizetype(field.name.size())),
                               QString::fromUtf8(field.help.data(), qsizetype(field.help.size())),
                               QString::fromUtf8(field.valueName.data(), qsizetype(field.valueName.size()))));

    if (!parser.parse(QCoreApplication::arguments()))
        fail({InvalidInput, text(parser.errorText()) + " (see --help)"});
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(Success);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (!parser.positionalArguments().isEmpty())
        fail({InvalidInput, "unexpected argument '" + text(parser.positionalArguments().first()) + "' (see --help)"});

    const auto units = vl::parseUnits(text(parser.value(unitsOpt)));
    if (!units)
        fail({InvalidInput, "--units: '" + text(parser.value(unitsOpt)) + "' is not allowed; use gib or gb"});
    const auto format = vl::parseFormat(text(parser.value(formatOpt)));
    if (!format)
        fail({InvalidInput,
              "--format: '" + text(parser.value(formatOpt)) + "' is not allowed; use table, json, markdown or csv"});
    const auto fitBy = vl::parseFitRule(text(parser.value(fitByOpt)));
    if (!fitBy)
        fail({InvalidInput, "--fit-by: '" + text(parser.value(fitByOpt)) + "' is not allowed; use sum or peak"});

    const QString userPresets = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + QStringLiteral("/presets");
    const vl::PresetCatalog catalog = vl::loadCatalog(
        vl::builtinPresetDir(
            text(QCoreApplication::applicationDirPath()),
            text(parser.isSet(presetsOpt) ? parser.value(presetsOpt) : qEnvironmentVariable("VRAM_LEDGER_PRESETS"))),
        text(userPresets));
    for (const vl::Error &skipped : catalog.skipped)
        std::fprintf(stderr, "vram-ledger-cli: skipped preset %s\n", skipped.describe().c_str());

    if (parser.isSet(listModelsOpt) || parser.isSet(listGpusOpt)) {
        if (parser.isSet(listModelsOpt))
            std::fputs(vl::renderModelList(catalog, *format).c_str(), stdout);
        if (parser.isSet(listGpusOpt))
            std::fputs(vl::renderGpuList(catalog, *units, *format).c_str(), stdout);
        return Success;
    }

    // The scenario: the article's example, then a file, a model and single fields, each
    // overriding the last.
    vl::Scenario scenario = vl::articleExampleDocument().scenario;
    std::optional<vl::GpuPreset> gpu;
    if (parser.isSet(scenarioOpt)) {
        const std::string path = text(parser.value(scenarioOpt));
        auto doc = vl::parseScenarioDocument(readOrFail(path), path);
        if (!doc)
            fail(invalid(doc.error()));
        scenario = doc->scenario;
        const auto gpus = catalog.resolveGpus(doc->gpuIds);
        for (const std::string &id : gpus.missing)
            std::fprintf(stderr,
                         "vram-ledger-cli: %s: GPU '%s' is not among the presets here (see --list-gpus); left out\n",
                         path.c_str(), id.c_str());
        if (!gpus.found.empty())
            gpu = gpus.found.front();
    }
    if (parser.isSet(modelOpt)) {
        const std::string typed = text(parser.value(modelOpt));
        const vl::ModelPreset *model = catalog.findModel(typed);
        if (!model)
            fail({InvalidInput,
                  "--model: '" + typed + "' is not a preset; "
                      + suggestion(catalog.similarModelIds(typed), "--list-models")});
        scenario = vl::withModel(scenario, model->arch);
    }
    if (parser.isSet(configOpt)) {
        const std::string path = text(parser.value(configOpt));
        const std::string content = readOrFail(path);
        const QString suffix = QFileInfo(QString::fromStdString(path)).suffix().toLower();
        const bool yaml = suffix == QLatin1String("yaml") || suffix == QLatin1String("yml");
        auto model = yaml ? vl::parseModelPreset(content, path) : vl::importHfConfig(content, path);
        if (!model)
            fail(invalid(model.error()));
        scenario = vl::withModel(scenario, model->arch);
    }
    if (parser.isSet(hfModelOpt)) {
        const auto ref = vl::parseHubModelRef(text(parser.value(hfModelOpt)));
        if (!ref)
            fail(invalid(ref.error()));
        const vl::HubResult fetched = fetchHubConfig(*ref, parser.isSet(offlineOpt));
        auto model = vl::importHfConfig(fetched.config.toStdString(), ref->text());
        if (!model)
            fail(invalid(model.error()));
        scenario = vl::withModel(scenario, model->arch);
        // The Hub counts the tensors in the safetensors files; a different count is shown, not hidden.
        const std::int64_t counted = vl::totalParameters(model->arch);
        if (fetched.publishedParams && *fetched.publishedParams != counted)
            std::fprintf(stderr,
                         "vram-ledger-cli: --hf-model: the Hub publishes %lld parameters for %s; its config "
                         "counts %lld\n",
                         static_cast<long long>(*fetched.publishedParams), ref->text().c_str(),
                         static_cast<long long>(counted));
    }
    std::vector<std::string_view> given;
    const vl::Architecture before = scenario.arch;
    for (const vl::FieldSpec &field : vl::scenarioFields()) {
        const QString name = QString::fromUtf8(field.name.data(), qsizetype(field.name.size()));
        if (!parser.isSet(name))
            continue;
        given.push_back(field.name);
        if (auto error = vl::setField(scenario, field.name, text(parser.value(name))))
            fail(invalid(*error));
    }
    scenario = vl::withEditRules(scenario, before, given);
    if (auto error = vl::scenarioError(scenario))
        fail(invalid(*error));

    if (parser.isSet(gpuOpt)) {
        const std::string typed = text(parser.value(gpuOpt));
        gpu = resolveGpu(catalog, typed);
        if (!gpu)
            fail({InvalidInput,
                  "--gpu: '" + typed + "' is neither a GPU preset nor a size like 80GB; "
                      + suggestion(catalog.similarGpuIds(typed), "--list-gpus")});
        scenario = vl::withGpu(scenario, *gpu, given);
    }

    if (int(parser.isSet(sweepOpt)) + int(parser.isSet(ladderOpt)) + int(parser.isSet(solveOpt)) > 1)
        fail({InvalidInput, "--sweep, --ladder and --solve each answer a different question; give one of them"});
    if (parser.isSet(sweepOpt)) {
        const auto spec = vl::parseSweepSpec(text(parser.value(sweepOpt)));
        if (!spec)
            fail(invalid(spec.error()));
        const auto points = vl::runSweep(scenario, *spec);
        if (!points)
            fail(invalid(points.error()));
        std::fputs(vl::renderSweep(spec->field, *points, *units, gpu, *fitBy, *format).c_str(), stdout);
        return Success;
    }

    if (parser.isSet(ladderOpt)) {
        if (!gpu)
            fail({InvalidInput, "--ladder: needs a GPU to fit; add --gpu ID"});
        std::vector<vl::Lever> order;
        for (const QString &word : parser.value(ladderOrderOpt).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto lever = vl::parseLever(text(word.trimmed()));
            if (!lever)
                fail({InvalidInput,
                      "--ladder-order: '" + text(word)
                          + "' is not a lever; use zero, recompute, mixed-precision or smaller-batch"});
            order.push_back(*lever);
        }
        if (order.empty())
            fail({InvalidInput,
                  "--ladder-order: name at least one lever: zero, recompute, mixed-precision or smaller-batch"});
        const auto gpus = vl::parseCount(text(parser.value(ladderGpusOpt)));
        const auto [fewest, most] = *vl::allowedRange(scenario, "dp"); // the GPUs ZeRO may shard over
        if (!gpus || *gpus < fewest || *gpus > most)
            fail({InvalidInput,
                  "--ladder-gpus: '" + text(parser.value(ladderGpusOpt)) + "' is not allowed; use "
                      + std::to_string(fewest) + " to " + std::to_string(most)});
        const auto steps = vl::optimizationLadder(scenario, order, vl::leverShardGroup(scenario, *gpus),
                                                  vl::leverTarget(*gpu), *fitBy);
        std::fputs(
            vl::renderLadder(vl::requiredBytes(vl::estimate(scenario), *fitBy), *fitBy, steps, *gpu, *units, *format)
                .c_str(),
            stdout);
        return Success;
    }

    vl::Report report = vl::makeReport(scenario, *units, gpu, *fitBy);
    if (parser.isSet(solveOpt)) {
        const std::string kind = text(parser.value(solveOpt));
        if (!gpu)
            fail({InvalidInput, "--solve: needs a GPU to solve for; add --gpu ID"});
        vl::SolveAnswer answer{kind, 0, 0};
        if (kind == "max-batch")
            answer.value = vl::maxMicroBatch(scenario, gpu->capacity, *fitBy);
        else if (kind == "max-seq")
            answer.value = vl::maxSequence(scenario, gpu->capacity, *fitBy);
        else if (kind == "min-gpus") {
            answer.value = vl::minDataParallel(scenario, gpu->capacity, *fitBy);
            answer.gpus = vl::gpusWithDataParallel(scenario, answer.value);
        } else
            fail({InvalidInput, "--solve: '" + kind + "' is not allowed; use max-batch, max-seq or min-gpus"});
        report.solve = answer;
    }
    std::fputs(vl::renderReport(report, *format).c_str(), stdout);
    return Success;
}
