#pragma once

#include "BackoffPoll.h"
#include "client/ProofClient.h"

#include "PageParts.h"
#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QSet>

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <string>

class QAction;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTemporaryDir;

namespace proofdesk::client {
class ProofFileVerifier;
}

namespace proofdesk::models {
class ProofQueryModel;
}

namespace proofdesk::ui {

class JsonView;

// The proof jobs page. A form for every submission kind of docs/api.md (core-query with all its
// parts, and each /v1 route), with file pickers and drag-and-drop, validated before sending and
// copyable as a curl command; the live table of the project's queries with search and a status
// filter; and the selected query: its steps as a timeline, hashes with copy buttons, artifact
// downloads, the record, and errorReason in full. It polls only while shown, backing off after
// errors; errors go to a banner, never a dialog. Jobs submitted here are watched: jobFinished
// fires once when one reaches DONE or FAILED.
class ProofJobsPage : public QWidget {
    Q_OBJECT
public:
    enum class Kind {
        CoreQuery,
        TraceGeneration,
        TraceAndProof,
        ProofAndVerificationL1,
        VerificationL2
    };

    ProofJobsPage(client::ProofClient* client, QWidget* parent = nullptr);
    ~ProofJobsPage() override;

    // Polling interval while the page is visible and the last poll succeeded.
    void setPollInterval(int milliseconds);
    Q_INVOKABLE void refresh(); // F5
    // Prefills the form (from the programs and buckets pages).
    void useProgramHash(const QString& programHash);
    void useBucket(const QString& bucketId);
    // The Job menu (the main window's): what can be done to the selected job, each with its
    // shortcut, the keyboard's way to the detail's buttons (issue #47). An action does nothing
    // while this page is hidden or its button is unavailable.
    QList<QAction*> jobActions() const { return m_jobActions; }
    // Where "Download" saves an artifact; by default a save dialog (tests pass a seam).
    void setSaveLocationProvider(std::function<QString(const QString& suggestedName)> provider);
    // The form as a submission, or nullopt with the reason it cannot be sent.
    std::optional<client::Submission> buildSubmission(FormError* error) const;

signals:
    // A watched job ended; `reason` is its errorReason (empty when it is DONE).
    void jobFinished(const QString& queryId, const QString& status, const QString& reason);
    void artifactSaved(const QString& path, qint64 bytes);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* buildForm();
    QWidget* buildJobList();
    void addJobRowMenu();
    QWidget* buildDetail();
    QWidget* buildArtifactsPane();
    Kind kind() const;
    void kindChanged();
    void browse(QLineEdit* target, const QString& filter);
    void submit();
    void copyFormAsCurl();
    // Fills the form with the sample program (trace generation).
    void trySample();
    void tryCairo1Sample();
    // Reads the chosen file (locally: nothing of it runs) and shows what it is; a Cairo 1
    // executable shows its entry points and builtins and takes arguments.
    void describeChosenFile();
    void showSelected();
    void clearDetail();
    void loadArtifacts(const QString& queryId);
    void showVerification(const QString& queryId, const QUrl& url);
    void showProgramOutput(const QString& queryId, const QUrl& url);
    void downloadSelectedArtifact();
    void verifySelectedArtifact();
    void showLocalVerdict(const nlohmann::json& verdict);
    void showProofMetadata(const QString& queryId, const QUrl& url);
    void showProgress(const api::ProofQuery& query);
    void resubmitSelected();
    void send(const client::Submission& submission, QPushButton* button,
              const std::function<void()>& accepted);
    void noticeFinishedJobs();
    // Another key is another project: nothing of the old one stays (its rows, the detail, the
    // watched jobs that would notify, a bucket id meant for it).
    void keyChanged();
    void addJobAction(const QString& text, const char* objectName, const QKeySequence& shortcut,
                      std::function<void()> run);
    // Presses `button` when it can be pressed now.
    void pressIfAvailable(QPushButton* button);
    // The artifact the Job menu's Download and Verify act on: the selected one, else proof.json.
    void selectProofArtifactIfNone();
    // Selects the job just submitted here once the list holds it (its detail then follows it).
    void selectSubmittedJob();
    QString currentQueryId() const;

    client::ProofClient* m_client;
    models::ProofQueryModel* m_model;
    QSortFilterProxyModel* m_filter;
    QFormLayout* m_form;
    QComboBox* m_kind;
    QLineEdit* m_programPath;
    QLineEdit* m_inputPath;
    QLayout* m_inputRow; // the input file's row (its edit and browse button)
    QLineEdit* m_programHash;
    QComboBox* m_result;
    QComboBox* m_layout;
    QComboBox* m_optimize;
    QComboBox* m_cairoVm;
    QLabel* m_fileKind;     // what the chosen file is (a Cairo 1 executable's entries, builtins)
    QLineEdit* m_arguments; // a Cairo 1 program's arguments, as scarb execute --arguments
    bool m_cairo1 = false;  // the chosen file is a Cairo 1 executable
    QComboBox* m_stoneVersion;
    QComboBox* m_memoryVerification;
    QCheckBox* m_mockFact;
    QLineEdit* m_dedupId;
    QLineEdit* m_externalId;
    QLineEdit* m_bucketId;
    QPushButton* m_submit;
    QLineEdit* m_search;
    QComboBox* m_statusFilter;
    QTableView* m_table;
    QLabel* m_detailTitle;
    QLabel* m_timeline;
    ElidedLabel* m_factHash;
    QLabel* m_verification; // the verdict of verification.json, when the query has one
    QLabel* m_output;       // the program's output (output.json) in decimal
    QLabel* m_errorReason;
    QListWidget* m_artifacts;
    QPushButton* m_download;
    QPushButton* m_verifyArtifact; // verifies a proof artifact here, with our own verifier
    QPushButton* m_resubmit;       // submits a failed query of this session again
    // Offers cairoVm=python for a hint without a native implementation: below the banner for a
    // submission refused for it, beside "Submit again" for a failed query of this session.
    QPushButton* m_submitWithPython;
    QPushButton* m_resubmitWithPython;
    std::optional<client::Submission> m_refusedForHints;
    bool m_pythonHintsRefused = false; // the server turned cairoVm=python down
    QProgressBar* m_progress;          // the prover's phase and fraction while proving
    QLabel* m_proofInfo;               // how the proof was made (metadata.json "proof")
    client::ProofFileVerifier* m_localVerifier;
    std::unique_ptr<QTemporaryDir> m_downloads; // proof artifacts fetched for verification
    QString m_verifyingFor;                     // the query whose artifact is being verified
    QPushButton* m_copyCurl;
    JsonView* m_detail;
    QLabel* m_banner;
    BackoffPoll m_poll;
    std::function<QString(const QString&)> m_saveLocation;
    QHash<QString, client::Submission> m_submitted; // for "copy as curl" of a past submission
    QSet<QString> m_watched;
    QString m_artifactsFor;
    // The selected query's status and step when its artifacts were listed: a change lists them
    // again (a job selected while it ran shows what its end produced, issue #47).
    std::string m_artifactsAt;
    bool m_inFlight = false;
    int m_keyGeneration = 0; // a list asked for with an earlier key is dropped
    QList<QAction*> m_jobActions;
    QString m_selectWhenListed; // a job submitted here, selected once the list shows it
};

} // namespace proofdesk::ui
