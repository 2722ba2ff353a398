// Every user-visible string has a Simplified Chinese translation: lupdate extracts the strings
// from the sources as they are now, and each must be translated in the .ts we ship.

#include "core/estimate.h"
#include "core/formulaterms.h"
#include "ui/controlpanel.h"
#include "ui/theme.h"
#include "ui/verdictbar.h"

#include <QCoreApplication>
#include <QDir>
#include <QDomDocument>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

namespace {

// (context, source) → translation, for every message in a .ts file; a plural's first form.
// `unfinished` collects the messages without a translation, `plurals` those with plural forms.
QHash<QString, QString> messages(const QString &path, QStringList *unfinished = nullptr, QStringList *plurals = nullptr)
{
    QHash<QString, QString> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    QDomDocument doc;
    if (!doc.setContent(&file))
        return out;
    const QDomNodeList contexts = doc.elementsByTagName(QStringLiteral("context"));
    for (int i = 0; i < contexts.size(); ++i) {
        const QDomElement context = contexts.at(i).toElement();
        const QString name = context.firstChildElement(QStringLiteral("name")).text();
        for (QDomElement m = context.firstChildElement(QStringLiteral("message")); !m.isNull();
             m = m.nextSiblingElement(QStringLiteral("message"))) {
            const QString source = m.firstChildElement(QStringLiteral("source")).text();
            const QDomElement translation = m.firstChildElement(QStringLiteral("translation"));
            QString text = translation.text();
            if (m.attribute(QStringLiteral("numerus")) == QLatin1String("yes")) {
                text = translation.firstChildElement(QStringLiteral("numerusform")).text();
                if (plurals)
                    *plurals << name + QLatin1Char('|') + source;
            }
            out.insert(name + QLatin1Char('|') + source, text);
            if (unfinished
                && (translation.attribute(QStringLiteral("type")) == QLatin1String("unfinished") || text.isEmpty()))
                *unfinished << name + QStringLiteral(": ") + source;
        }
    }
    return out;
}

// Every term searched for in turn, longest first, each found replaced by a mark and the marks by
// the translations at the end: what FormulaLocalizer does, without its shortcut of skipping the
// terms whose first two characters the formula does not hold.
QString everyTermLocalized(const std::string &formula)
{
    QString text = QString::fromStdString(formula);
    QStringList translations;
    for (const std::string_view term : vl::formulaTerms()) {
        const QByteArray source(term.data(), qsizetype(term.size()));
        const QString english = QString::fromUtf8(source);
        const QString translated = QCoreApplication::translate("vl::formula", source.constData());
        if (translated == english || !text.contains(english))
            continue;
        text.replace(english, QChar(char16_t(0xE000 + translations.size())));
        translations << translated;
    }
    for (qsizetype i = 0; i < translations.size(); ++i)
        text.replace(QChar(char16_t(0xE000 + i)), translations[i]);
    return text;
}

} // namespace

using namespace vl;

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyStringIsTranslated()
    {
        const QString shipped = QStringLiteral(VL_SOURCE_DIR "/resources/translations/vram-ledger_zh_CN.ts");
        QStringList unfinished;
        const auto ours = messages(shipped, &unfinished);
        QVERIFY(!ours.isEmpty());
        QVERIFY2(unfinished.isEmpty(), qPrintable(unfinished.join(QLatin1Char('\n'))));

        QTemporaryDir dir;
        const QString fresh = dir.filePath(QStringLiteral("fresh_zh_CN.ts"));
        QProcess lupdate;
        lupdate.start(QStringLiteral(VL_LUPDATE),
                      {QStringLiteral("-I"), QStringLiteral(VL_SOURCE_DIR), QStringLiteral(VL_SOURCE_DIR "/ui"),
                       QStringLiteral(VL_SOURCE_DIR "/io"), QStringLiteral(VL_SOURCE_DIR "/app"),
                       // core's formula terms, marked without Qt (core/formulaterms.cpp)
                       QStringLiteral(VL_SOURCE_DIR "/core/formulaterms.cpp"), QStringLiteral("-tr-function-alias"),
                       QStringLiteral("QT_TRANSLATE_NOOP+=VL_TRANSLATE_NOOP"), QStringLiteral("-ts"), fresh,
                       QStringLiteral("-silent")});
        QVERIFY(lupdate.waitForFinished(120'000));
        QCOMPARE(lupdate.exitCode(), 0);
        const auto current = messages(fresh);
        QVERIFY(current.size() > 100);
        QStringList missing;
        for (auto it = current.cbegin(); it != current.cend(); ++it)
            if (ours.value(it.key()).isEmpty())
                missing << it.key();
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("untranslated in zh_CN:\n") + missing.join(QLatin1Char('\n'))));
    }

    // English needs its own plural forms ("%n GPU" and "%n GPUs"): every message the Chinese
    // catalogue has as a plural is in the English one, else English shows "GPU(s)".
    void everyPluralHasEnglishForms()
    {
        QStringList plurals;
        messages(QStringLiteral(VL_SOURCE_DIR "/resources/translations/vram-ledger_zh_CN.ts"), nullptr, &plurals);
        QVERIFY(!plurals.isEmpty());
        const auto english = messages(QStringLiteral(VL_SOURCE_DIR "/resources/translations/vram-ledger_en.ts"));
        QStringList missing;
        for (const QString &key : plurals)
            if (english.value(key).isEmpty())
                missing << key;
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("no English plural forms:\n") + missing.join(QLatin1Char('\n'))));
    }

    void englishPluralForms()
    {
        QTranslator english;
        QVERIFY(english.load(QStringLiteral(":/i18n/vram-ledger_en.qm")));
        QCOMPARE(english.translate("vl::ui", "%n GPU(s)", nullptr, 1), QStringLiteral("%n GPU"));
        QCOMPARE(english.translate("vl::ui", "%n GPU(s)", nullptr, 8), QStringLiteral("%n GPUs"));
    }

    void embeddedCatalogueLoads()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/vram-ledger_zh_CN.qm")));
        QCOMPARE(translator.translate("vl::ui", "Optimizer states"), QStringLiteral("优化器状态"));
        // Contexts must be what tr() asks for at run time: the class name with its namespace.
        QCOMPARE(translator.translate(vl::ControlPanel::staticMetaObject.className(), "Model"), QStringLiteral("模型"));
        QCOMPARE(translator.translate(vl::VerdictBar::staticMetaObject.className(), "peak"), QStringLiteral("峰值"));
    }

    // A translation is put in once: the English words it keeps are not translated again by a
    // shorter term ("bits" inside "bitsandbytes").
    void formulaTermsAreTranslatedOnce_data()
    {
        QTest::addColumn<QString>("formula");
        QTest::addColumn<QString>("kept");
        QTest::newRow("bitsandbytes' quant_state") << QStringLiteral(
            "(6.85e10 params × 4 bits (NF4 codes) + 5.26e8 × 2 B) ÷ 2 GPUs (ZeRO) + their quantization constants "
            "1.01 GiB (0.127 bits a weight, double-quantized), whole on every GPU (bitsandbytes' quant_state is not "
            "a parameter) = 17.4 GiB") << QStringLiteral("bitsandbytes 的 quant_state");
    }
    void formulaTermsAreTranslatedOnce()
    {
        QFETCH(QString, formula);
        QFETCH(QString, kept);
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/vram-ledger_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        const QString text = FormulaLocalizer().localized(formula.toStdString());
        QCoreApplication::removeTranslator(&translator);
        QVERIFY2(text.contains(kept), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("0.127 位/权重")), qPrintable(text)); // the shorter terms still apply
    }

    // Every formula the explanation shows reads in Chinese: no run of three English words is left
    // once localized (FormulaLocalizer), for each implementation, precision style and loss.
    void formulasReadInChinese_data()
    {
        QTest::addColumn<int>("implementation");
        QTest::addColumn<int>("modeling");
        QTest::addColumn<int>("ampStyle");
        QTest::addColumn<int>("fineTune");
        QTest::addColumn<int>("loss");
        QTest::addColumn<bool>("fsdpSelective"); // FSDP over 8 GPUs with torchtitan's op-level checkpointing
        QTest::addColumn<int>("normsPerLayer");  // gpt-neox: 1, phi-1.5's shared norm
        QTest::addColumn<bool>("offload");       // activations offloaded to CPU memory
        QTest::addColumn<int>("tensorParallel"); // with sequence parallelism; torchtitan's loss_parallel
        QTest::newRow("megatron") << int(Implementation::Megatron) << int(Modeling::Llama) << int(AmpStyle::MasterCopy)
                                  << int(FineTune::Full) << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("hugging face llama, autocast, LoRA with dropout")
            << int(Implementation::HuggingFace) << int(Modeling::Llama) << int(AmpStyle::Autocast)
            << int(FineTune::LoRA) << int(Loss::Chunked) << false << 2 << false << 1;
        QTest::newRow("hugging face GPT-2, autocast")
            << int(Implementation::HuggingFace) << int(Modeling::Gpt2) << int(AmpStyle::Autocast) << int(FineTune::Full)
            << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("hugging face GPT-2, BF16 with a master copy")
            << int(Implementation::HuggingFace) << int(Modeling::Gpt2) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("hugging face BERT")
            << int(Implementation::HuggingFace) << int(Modeling::Bert) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("lit-gpt QLoRA") << int(Implementation::LitGpt) << int(Modeling::Llama)
                                       << int(AmpStyle::MasterCopy) << int(FineTune::QLoRA) << int(Loss::Standard)
                                       << false << 2 << false << 1;
        QTest::newRow("lit-gpt phi-1.5 QLoRA")
            << int(Implementation::LitGpt) << int(Modeling::GptNeox) << int(AmpStyle::MasterCopy)
            << int(FineTune::QLoRA) << int(Loss::Standard) << false << 1 << false << 1;
        QTest::newRow("lit-gpt StableLM-alpha, full")
            << int(Implementation::LitGpt) << int(Modeling::GptNeox) << int(AmpStyle::MasterCopy) << int(FineTune::Full)
            << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("lit-gpt Llama, bf16-mixed, LoRA")
            << int(Implementation::LitGpt) << int(Modeling::Llama) << int(AmpStyle::Autocast) << int(FineTune::LoRA)
            << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("lit-gpt Llama, bf16-mixed, full")
            << int(Implementation::LitGpt) << int(Modeling::Llama) << int(AmpStyle::Autocast) << int(FineTune::Full)
            << int(Loss::Standard) << false << 2 << false << 1;
        QTest::newRow("lit-gpt phi-1.5, bf16-mixed, full")
            << int(Implementation::LitGpt) << int(Modeling::GptNeox) << int(AmpStyle::Autocast) << int(FineTune::Full)
            << int(Loss::Standard) << false << 1 << false << 1;
        QTest::newRow("torchtitan") << int(Implementation::TorchTitan) << int(Modeling::Llama)
                                    << int(AmpStyle::MasterCopy) << int(FineTune::Full) << int(Loss::Standard) << false
                                    << 2 << false << 1;
        QTest::newRow("torchtitan, FSDP, op-level selective checkpointing")
            << int(Implementation::TorchTitan) << int(Modeling::Llama) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << true << 2 << false << 1;
        QTest::newRow("torchtitan, activations offloaded with checkpointing")
            << int(Implementation::TorchTitan) << int(Modeling::Llama) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << false << 2 << true << 1;
        QTest::newRow("hugging face llama, activations offloaded")
            << int(Implementation::HuggingFace) << int(Modeling::Llama) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << false << 2 << true << 1;
        QTest::newRow("torchtitan, TP 8: loss_parallel")
            << int(Implementation::TorchTitan) << int(Modeling::Llama) << int(AmpStyle::MasterCopy)
            << int(FineTune::Full) << int(Loss::Standard) << false << 2 << false << 8;
    }
    void formulasReadInChinese()
    {
        QFETCH(int, implementation);
        QFETCH(int, modeling);
        QFETCH(int, ampStyle);
        QFETCH(int, fineTune);
        QFETCH(int, loss);
        QFETCH(bool, fsdpSelective);
        QFETCH(int, normsPerLayer);
        QFETCH(bool, offload);
        QFETCH(int, tensorParallel);
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/vram-ledger_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        Scenario s;
        s.arch.modeling = Modeling(modeling);
        if (s.arch.modeling != Modeling::Llama) {
            s.arch.mlp = MlpKind::Gelu;
            s.arch.norm = NormKind::LayerNorm;
            s.arch.linearBias = true;
            s.arch.normsPerLayer = normsPerLayer;
        }
        if (s.arch.modeling == Modeling::Gpt2 || s.arch.modeling == Modeling::Bert) {
            s.arch.learnedPositions = 1024;
            s.dropout = true;
        }
        s.precision = Precision::MixedBf16;
        s.implementation = Implementation(implementation);
        s.attention = s.implementation == Implementation::TorchTitan ? Attention::Sdpa
            : s.implementation == Implementation::LitGpt             ? Attention::Flash
                                                                     : Attention::Eager;
        if (s.implementation == Implementation::LitGpt) { // bf16-true, or bf16-mixed under autocast
            s.precision = AmpStyle(ampStyle) == AmpStyle::Autocast ? Precision::MixedBf16 : Precision::Bf16;
            s.loraTargets = LoraQ | LoraV | LoraHead;
        }
        s.ampStyle = AmpStyle(ampStyle);
        s.fineTune = FineTune(fineTune);
        s.loraDropout = true;
        s.loss = Loss(loss);
        if (offload) {
            s.activationOffload = true;
            s.recompute = s.implementation == Implementation::TorchTitan ? Recompute::Full : Recompute::None;
        }
        if (fsdpSelective) {
            s.zeroStage = 3;
            s.sharding = Sharding::Fsdp;
            s.dataParallel = 8;
            s.recompute = Recompute::Selective;
        }
        s.tensorParallel = tensorParallel;
        s.sequenceParallel = tensorParallel > 1;
        QVERIFY2(!scenarioError(s), scenarioError(s) ? scenarioError(s)->message.c_str() : "");
        const QRegularExpression englishProse(QStringLiteral("[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}"));
        const FormulaLocalizer formulas;
        for (const ExplainedItem &item : explain(s, Units::GiB)) {
            const QString text = formulas.localized(item.formula);
            QCOMPARE(text, everyTermLocalized(item.formula));
            QVERIFY2(!englishProse.match(text).hasMatch(),
                     qPrintable(QStringLiteral("%1: %2").arg(QString::fromUtf8(idString(item.id).data()), text)));
        }
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
