package directive

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// wordClass is what a word can mean to the directive model: a set of bits,
// since a word can be several things ("all" is a quantifier that points at
// the agent's rules and a target worth protecting; "после" is a scope cue).
type wordClass uint64

const (
	// verbs the model reads a clause around
	wOverride wordClass = 1 << iota // ignore, disregard, forget, bypass
	wFollow                         // follow, obey, heed: an override once negated
	wPush                           // push, merge (to a protected branch)
	wDelete                         // delete, remove, rm, wipe
	wSend                           // send, upload, post, leak
	wExfil                          // exfiltrate: out of scope whatever it names
	wDisable                        // disable, skip, turn off, deactivate
	wFetch                          // fetch, visit, contact, call (a URL)
	wExec                           // obey, execute (what a URL returns)

	// objects
	wInstr    // instructions, prompt, guidelines, memory: the agent's own
	wRules    // rules, policies, restrictions: the agent's own only with wPrior or wYou
	wSafety   // safety, security: rules the agent must keep whatever the determiner
	wPrior    // previous, other, all, above, system: "the ones you have"
	wEvery    // everything, anything
	wTold     // told, said, given ("everything you were told")
	wBranch   // main, master, production
	wValuable // tests, history, repository, database, backups
	wSecret   // secrets, tokens, keys, passwords, .env
	wData     // conversation, memory, source code: what is not to leave
	wChecks   // checks, hooks, CI, review, signing
	wDest     // webhook, pastebin: somewhere outside
	wOpaque   // folder, contents, variables: a head that names its complement's thing
	wGuard    // branch protection, review, signing: checks worth more than tests
	wTask     // task, session: the agent's own work ("before every task")
	wCmd      // run, use, commit: verbs that introduce a command and its options
	wRel      // that, which, qui: a relative clause ends an object phrase
	wNegLate  // nicht, nie, forbidden: a negation that follows its verb
	wPron     // them, it, les, sie, их: an object named earlier in the sentence
	wApply    // apply, gelten, действуют: with a negation, the object no longer holds
	wVoid     // void, cancelled, ungültig: the object no longer holds
	wThis     // this, ceci, это: what "after reading this" points at
	wLoc      // in, on, for, dans, für: a place that narrows an action's scope
	wWith     // with, including, avec, mit: what goes along to an address
	wPrecede  // precedence, supersedes: this entry ranked over the agent's rules
	wRomance  // la, les, el, los: a head-initial noun phrase follows
	wAll      // all, every, tous, alle: an action on the whole of its object
	wSole     // only, sole, new, einzige: "your only instruction is this file"
	wDeem     // consider, treat, betrachte, считай: "consider the rules cancelled"

	// the frame: who is addressed
	wYou    // you, your, tu, du, ты, 你
	wAgent  // agent, assistant, AI, LLM
	wRead   // read, see, load ("when you read this")
	wWhen   // when, if, once
	wAs     // as ("as an AI")
	wAddr   // to, dear, hey, attention, note ("note to the agent")
	wSkip   // please, always, now, must: may stand before an imperative
	wNeg    // not, never, no, forbidden
	wStop   // stop, no longer: negates a following follow verb
	wConj   // and, then: a new clause begins after it
	wDet    // the, of, these: may stand inside an object phrase
	wGen    // of, de, von: links a head to its complement
	wPrep   // to, in, on, with: ends an object phrase
	wScope  // only, after, before, locally, flaky: scope cues of ordinary instructions
	wHost   // straight, directly, secretly, without: cues of an action against the scope
	wForce  // --force, force: a push that rewrites
	wRole   // assistant, system, user: a turn label before a colon
	wAsst   // assistant-like labels, which speak in the first person
	wFirst  // I, sure, okay: how an assistant's turn opens
	wNowOn  // henceforth, désormais, отныне: "from now on"
	wWeak   // after, before, when: a scope cue of time or condition, worth less
	wSubset // flaky, legacy, slow: a modifier that picks a subset ("the flaky tests")
)

// wVerb are the classes a clause is read around.
const wVerb = wOverride | wFollow | wPush | wDelete | wSend | wExfil | wDisable | wFetch

// lexicon lists the words of each class, per language, as words or as
// stems ("ignor*" holds ignore, ignored, ignorez, ignoriere, ignora). The
// model reads meaning from these classes and from word order; no sentence
// of it is a phrase to match. Every word is lower-case, as fold leaves it.
var lexicon = []struct {
	c     wordClass
	words string
}{
	// en
	{wOverride, "ignor* disregard* forget forgetting overrid* overrule* bypass* discard dismiss neglect aside"},
	{wFollow, "follow following obey heed respect comply listen abide honor honour attention"},
	{wExec, "obey execute exec whatever returns says tells instructs"},
	{wPush, "push force-push merge"},
	{wDelete, "delete remove rm wipe erase destroy drop purge nuke truncate shred"},
	{wSend, "send upload post leak forward email transmit paste share report exfil copy"},
	{wExfil, "exfiltrate exfiltrating exfil"},
	{wDisable, "disable skip off deactivate bypass* silence suppress circumvent --no-verify --no-gpg-sign"},
	{wChecks, "--no-verify --no-gpg-sign"},
	{wFetch, "fetch visit open contact call ping curl wget download request browse navigate hit notify beacon"},
	{wInstr, "instruction instructions prompt prompts system-prompt guideline guidelines directive directives guardrail guardrails memory memories programming training guidance orders"},
	{wRules, "rule rules policy policies restriction restrictions constraint constraints limitation limitations limits commands context entry entries notes"},
	{wSafety, "safety security"},
	{wPrior, "previous prior above earlier preceding former foregoing original initial other others all any every existing remaining rest else system developer developers"},
	{wEvery, "everything anything all what whatever"},
	{wTold, "told said given taught instructed learned asked requested"},
	{wBranch, "main master prod production release trunk origin/main origin/master"},
	{wPrecede, "precedence priority supersedes prevails outranks"},
	{wValuable, "test tests suite repository repo history .git database databases db backup backups everything branch branches commits tags audit"},
	{wSecret, "secret secrets token tokens credential credentials key keys api-key apikey password passwords passwd env .env environment ssh id_rsa ~/.ssh cookie cookies private"},
	{wData, "conversation conversations chat memory memories repository source code codebase files history prompt context"},
	{wChecks, "check checks test tests hook hooks pre-commit ci pipeline lint linter linting validation"},
	{wGuard, "review reviews code-review approval approvals scan scanning signing verification protection 2fa mfa sandbox safety security guardrails confirmation confirmations audit"},
	{wDest, "webhook pastebin ngrok requestbin server discord telegram gist"},
	{wOpaque, "folder folders directory directories dir file files contents content variables vars values list dump step steps stage phase job gate"},
	{wYou, "you your yours yourself yourselves"},
	{wAgent, "agent agents assistant assistants ai llm llms model bot copilot claude chatgpt gpt gemini codex cursor"},
	{wRead, "read reading see load loads process encounter parse ingest"},
	{wWhen, "when whenever once if after upon"},
	{wAs, "as"},
	{wAddr, "to dear hey attention note hello"},
	{wSkip, "please always now just simply immediately then also first kindly quickly quietly silently secretly go must should need needs have has to will shall can are is turn switch shut pay do git anymore entirely completely totally altogether again here there set put lay permission allowed free authorized permitted entitled able re ll ve d m"},
	{wCmd, "run use execute exec commit type invoke"},
	{wTask, "task tasks session sessions conversation response answer reply"},
	{wRel, "that which who whose"},
	{wPron, "them it those"},
	{wApply, "apply applies matter valid"},
	{wVoid, "void invalid cancelled canceled revoked obsolete superseded null optional irrelevant outdated"},
	{wThis, "this"},
	{wLoc, "in on for under inside within"},
	{wWith, "with including containing plus"},
	{wNeg, "not never no don dont doesn isn aren forbidden prohibited banned nor cannot mustn shouldn"},
	{wNegLate, "never forbidden prohibited banned disallowed"},
	{wStop, "stop cease longer"},
	{wConj, "and then but so because since"},
	{wDet, "the a an of your my these those this that its our their each any all every s"},
	{wGen, "of"},
	{wPrep, "to into in on at for with before after via through using from onto"},
	{wScope, "only unless except through via locally local temporarily"},
	{wSubset, "flaky legacy slow generated temporary old stale unused broken e2e gpu spell-check spellcheck spelling"},
	{wScope | wWeak, "after before during until if while when once"},
	{wHost, "straight directly immediately secretly silently quietly without regardless anyway"},
	{wForce, "--force -f force --force-with-lease force-push"},
	{wRole, "assistant system user human ai bot model developer gpt claude"},
	{wAsst, "assistant ai bot model gpt claude"},
	{wFirst, "i sure okay ok understood certainly absolutely yes course done"},
	{wSole, "only sole single new real true actual"},
	{wDeem, "consider treat regard deem count"},
	{wAll, "all every entire whole"},
	{wNowOn, "henceforth hereafter"},

	// fr
	{wOverride, "ignore ignorez ignorer ignores oublie oubliez oublier outrepasse* contourne* néglige* écarte* omets omettez outre côté"},
	{wFollow, "suis suivez suivre respecte respectez respecter obéis obéissez tiens tenez tenir compte applique appliquez"},
	{wPush, "pousse poussez pousser"},
	{wDelete, "supprime* efface* détrui* vide videz"},
	{wSend, "envoie envoyez envoyer transmets transmettez téléverse* partage partagez copie copiez"},
	{wDisable, "désactive* saute sautez coupe coupez"},
	{wFetch, "contacte* visite* ouvre ouvrez télécharge* récupère* appelle* consulte*"},
	{wExec, "renvoie dit exécute"},
	{wInstr, "instruction* consigne* prompt directive* mémoire* souvenirs"},
	{wRules, "règle* restriction* contrainte* politique* entrée entrées"},
	{wSafety, "sécurité"},
	{wPrior, "précédent précédente précédents précédentes antérieur* ci-dessus dessus autres tous toutes tout toute ancien* initial* système"},
	{wEvery, "tout"},
	{wTold, "dit appris donné"},
	{wValuable, "tests dépôt historique base sauvegarde sauvegardes branches"},
	{wSecret, "secret secrets jeton jetons clé clés clef clefs identifiant* environnement"},
	{wData, "conversation historique mémoire code fichiers"},
	{wChecks, "vérification* contrôle* tests hooks ci validation* pipeline"},
	{wGuard, "relecture revue protection signature"},
	{wOpaque, "dossier répertoire fichier fichiers contenu variables"},
	{wYou, "tu vous toi te ton ta tes votre vos dois devez peux pouvez"},
	{wAgent, "agent agents assistant ia modèle"},
	{wRead, "lis lisez liras lirez lit vois voyez charges"},
	{wWhen, "quand lorsque lorsqu dès si après"},
	{wAs, "en"},
	{wSkip, "s il plaît maintenant toujours simplement désormais aussi ensuite dois devez merci mets mettez"},
	{wRomance, "la le les l un une des"},
	{wSole, "seule seules unique nouvelles vraies"},
	{wDeem, "considère considérez traite traitez"},
	{wAll, "tous toutes tout toute"},
	{wCmd, "lance lancez exécute exécutez utilise utilisez commite"},
	{wTask, "tâche tâches session"},
	{wRel, "qui que dont"},
	{wPron, "les la le"},
	{wApply, "appliquent applique valent comptent"},
	{wVoid, "nul nulle nuls nulles annulé annulées caduques obsolètes périmées facultatives"},
	{wThis, "ceci cela ça"},
	{wLoc, "dans sur pour"},
	{wWith, "avec"},
	{wNeg, "ne n pas jamais interdit"},
	{wNegLate, "jamais interdit interdite interdits"},
	{wStop, "arrête arrêtez plus"},
	{wConj, "et puis ensuite"},
	{wDet, "les le la l des de du d vos tes ta ton votre ces cette tous toutes"},
	{wGen, "de du d des"},
	{wPrep, "à au aux vers sur dans avec avant après par pour"},
	{wScope, "seulement uniquement localement via sauf"},
	{wSubset, "lents lentes instables anciens anciennes obsolètes"},
	{wScope | wWeak, "après avant quand lorsque pendant si"},
	{wHost, "directement immédiatement secrètement sans discrètement silencieusement"},
	{wRole, "système utilisateur humain"},
	{wFirst, "je j bien compris accord sûr"},
	{wNowOn, "désormais dorénavant"},

	// de
	{wOverride, "ignoriere ignoriert ignorieren vergiss vergesst vergessen missachte* übergehe* umgehe* überschreibe* verwirf verwerft beiseite"},
	{wFollow, "befolge befolgt befolgen folge folgt beachte beachtet beachten gehorche*"},
	{wPush, "pushe pushen"},
	{wDelete, "lösche* entferne* vernichte*"},
	{wSend, "sende sendet schicke schick schickt übermittle* übertrage* teile"},
	{wDisable, "deaktiviere* überspringe* schalte ab abschalten"},
	{wFetch, "besuche kontaktiere* öffne rufe"},
	{wExec, "sagt zurückgibt ausführen"},
	{wInstr, "anweisung* instruktion* prompt systemprompt richtlinie* vorgabe* erinnerung* gedächtnis"},
	{wRules, "regel* einschränkung* beschränkung* befehle eintrag einträge"},
	{wSafety, "sicherheit sicherheitsregeln sicherheitsrichtlinien"},
	{wPrior, "vorherige* vorige* frühere* bisherige* obige* alle allen anderen andere übrige* ursprüngliche* sämtliche*"},
	{wEvery, "alles"},
	{wTold, "gesagt beigebracht gegeben"},
	{wValuable, "tests repository historie verlauf datenbank* backups sicherungen alles branches"},
	{wBranch, "produktion"},
	{wSecret, "geheimnis* token schlüssel passwort passwörter zugangsdaten umgebungsvariablen secrets"},
	{wData, "unterhaltung verlauf quellcode dateien"},
	{wChecks, "prüfung* checks tests hooks ci pipeline* ci-prüfungen"},
	{wGuard, "review* überprüfung* sicherheitsprüfungen branch-schutz schutz signierung signatur"},
	{wOpaque, "ordner verzeichnis datei dateien inhalt variablen"},
	{wYou, "du dich dir dein deine deinen deiner euch musst sollst darfst kannst"},
	{wAgent, "agent agenten assistent assistenten ki modell"},
	{wRead, "liest lest lesen siehst"},
	{wWhen, "wenn sobald falls nachdem"},
	{wAs, "als"},
	{wSkip, "bitte jetzt sofort immer einfach auch dann musst sollst sie lege legt"},
	{wAll, "alle allen sämtliche"},
	{wSole, "einzige einzigen neue echte"},
	{wDeem, "betrachte betrachtet behandle"},
	{wCmd, "führe nutze verwende committe"},
	{wTask, "aufgabe aufgaben sitzung"},
	{wRel, "welche welcher"},
	{wPron, "sie ihn es"},
	{wApply, "gelten gilt zählen"},
	{wVoid, "ungültig aufgehoben nichtig hinfällig veraltet optional"},
	{wThis, "das dies diesen"},
	{wLoc, "in im auf für"},
	{wWith, "mit samt"},
	{wNeg, "nicht nie niemals kein keine verboten"},
	{wNegLate, "nicht nie niemals"},
	{wStop, "hör höre mehr"},
	{wConj, "und dann"},
	{wDet, "die der das den dem des deine deinen ihre eure jede jeglichen von diese dieser dieses diesen"},
	{wGen, "von"},
	{wPrep, "zu auf in im an mit vor nach über für"},
	{wScope, "nur lokal außer"},
	{wSubset, "langsame langsamen instabile alte alten veraltete"},
	{wScope | wWeak, "während bevor nachdem wenn falls"},
	{wHost, "direkt sofort heimlich ohne trotzdem unbemerkt stillschweigend still"},
	{wRole, "assistent system benutzer nutzer mensch"},
	{wAsst, "assistent"},
	{wFirst, "ich klar verstanden gerne natürlich"},
	{wNowOn, "fortan künftig"},

	// es
	{wOverride, "ignora ignore ignoren ignorar olvida olvide olviden olvidar omite omitir descarta* omiso desobedece* lado"},
	{wFollow, "sigas sigan siga sigue seguir obedezcas obedece obedecer respetes respeta respetar cumplas cumple caso"},
	{wPush, "empuja empujar"},
	{wDelete, "borra* elimina* suprime* destruye"},
	{wSend, "envía envia envíe enviar manda mande mandar sube subir comparte compartir transmite filtra"},
	{wDisable, "desactiva* deshabilita* salta sáltate apaga"},
	{wFetch, "visita* contacta* abre descarga* llama accede"},
	{wExec, "dice devuelve ejecuta"},
	{wInstr, "instrucci* indicaci* prompt directri* memoria* pautas"},
	{wRules, "regla* restricci* política* norma* entrada entradas"},
	{wSafety, "seguridad"},
	{wPrior, "anterior anteriores previa previas previo previos todas todos toda demás otras otros original* sistema"},
	{wEvery, "todo"},
	{wTold, "dicho enseñado dado"},
	{wValuable, "pruebas tests repositorio historial base copias respaldo* todo ramas"},
	{wSecret, "secreto secretos token tokens clave claves contraseña contraseñas credencial* entorno"},
	{wData, "conversación historial memoria código archivos"},
	{wChecks, "comprobacion* comprobación pruebas hooks ci validación"},
	{wGuard, "verificacion* verificación revisión revision* protección firma"},
	{wOpaque, "carpeta directorio archivo archivos contenido variables"},
	{wYou, "tú usted ustedes te ti vosotros tus debes tienes puedes"},
	{wAgent, "agente asistente ia modelo"},
	{wRead, "lees leas leer lea veas ves"},
	{wWhen, "cuando si apenas después"},
	{wAs, "como"},
	{wSkip, "por favor ahora siempre simplemente también luego debes tienes que haz caso deja"},
	{wRomance, "la las el los un una"},
	{wAll, "todas todos toda todo"},
	{wSole, "única único nuevas verdaderas"},
	{wDeem, "considera considere trata"},
	{wBranch, "producción produccion"},
	{wCmd, "ejecuta usa utiliza"},
	{wTask, "tarea tareas sesión"},
	{wRel, "cual"},
	{wPron, "los las lo"},
	{wApply, "aplican aplica valen cuentan"},
	{wVoid, "nulas nulos anuladas anulados inválidas obsoletas opcionales"},
	{wThis, "esto esta este"},
	{wLoc, "en para"},
	{wWith, "con incluyendo"},
	{wNeg, "no nunca jamás prohibido"},
	{wNegLate, "nunca jamás prohibido prohibida"},
	{wStop, "deja"},
	{wConj, "y luego"},
	{wDet, "las los la el de del tus sus su esas estas cualquier todas todos"},
	{wGen, "de del"},
	{wPrep, "a al en con antes después hacia para"},
	{wScope, "solo sólo solamente únicamente localmente mediante salvo excepto"},
	{wSubset, "lentas lentos inestables antiguas antiguos obsoletos"},
	{wScope | wWeak, "después antes cuando durante"},
	{wHost, "directamente inmediatamente sin igualmente silencio secreto"},
	{wRole, "asistente sistema usuario humano"},
	{wAsst, "asistente"},
	{wFirst, "yo claro entendido vale voy"},

	// ru
	{wOverride, "игнорир* проигнорир* забудь забудьте забыть забей пренебреги* отбрось* обойди* обходи* отмени* отлож*"},
	{wFollow, "следуй следуйте следовать слушай* подчиняй* соблюдай* обращай обращайте выполняй* внимания"},
	{wPush, "запушь* запушить пушни пушь отправь отправьте"},
	{wDelete, "удали* удаляй* сотри сотрите уничтож* снеси"},
	{wSend, "отправь* отправля* пошли перешли* загрузи передай* слей слейте"},
	{wDisable, "отключи* выключи* пропусти* пропускай* обойди"},
	{wFetch, "зайди открой скачай обратись свяжись вызови перейди"},
	{wExec, "говорит вернёт вернет выполни"},
	{wInstr, "инструкц* указани* промпт* директив* памя*"},
	{wRules, "правил* ограничени* запис*"},
	{wSafety, "безопасност*"},
	{wPrior, "предыдущ* прежн* ранее выше все всё всю весь вся всех всем любые остальн* други* системн* исходн*"},
	{wEvery, "всё"},
	{wTold, "сказали говорили"},
	{wValuable, "тест* репозитори* истори* баз* бэкап* резервн* всё ветк*"},
	{wSecret, "секрет* токен* ключ* парол* учётн* учетн* окружения креды"},
	{wData, "переписк* истори* памят* код* файл*"},
	{wChecks, "проверк* тест* хук* ci пайплайн*"},
	{wGuard, "ревью защит* подпис*"},
	{wOpaque, "папк* каталог* файл* содержимое переменные"},
	{wYou, "ты вы тебе тебя вам вас тво* ваш* себя сво*"},
	{wAgent, "агент* ассистент* помощник* ии нейросет* модел*"},
	{wRead, "прочит* прочт* чита* увидишь загрузишь"},
	{wWhen, "когда если после"},
	{wAs, "как"},
	{wSkip, "пожалуйста теперь сейчас сразу просто всегда обязательно также тоже должен должна должны"},
	{wCmd, "запусти используй выполни закоммить"},
	{wTask, "задач* сесси*"},
	{wRel, "который которые которых"},
	{wPron, "их его это"},
	{wApply, "действуют действует применяются применяется"},
	{wVoid, "недействительны отменены отменёнными отмененными устарели необязательны"},
	{wSole, "единственная единственные новые настоящие"},
	{wDeem, "считай считайте"},
	{wAll, "все всё всю весь"},
	{wBranch, "продакшн продакшен прод"},
	{wThis, "это этого"},
	{wLoc, "в на для"},
	{wWith, "с вместе"},
	{wNeg, "не никогда нельзя запрещено"},
	{wNegLate, "никогда нельзя запрещено запрещён запрещен запрещена"},
	{wStop, "перестань хватит больше"},
	{wConj, "и затем потом"},
	{wDet, "эти эту этот эта это сво* тво* ваш* на о об все всю всех"},
	{wPrep, "в на к до после через при для"},
	{wScope, "только локально через кроме"},
	{wSubset, "медленные нестабильные старые устаревшие"},
	{wScope | wWeak, "после перед при когда если"},
	{wHost, "сразу немедленно тайно незаметно без прямо молча напрямую тихо"},
	{wRole, "ассистент система пользователь помощник человек"},
	{wAsst, "ассистент помощник"},
	{wFirst, "я конечно хорошо понял ок"},
	{wNowOn, "отныне впредь"},

	// zh: words, which segment a run of Han characters
	{wOverride, "忽略 忽视 无视 忘记 忘掉 忘了 绕过 覆盖 抛开 丢弃 放在一边 搁置"},
	{wFollow, "遵守 遵循 理会 听从 服从"},
	{wPush, "推送 推到 合并"},
	{wDelete, "删除 删掉 清空 销毁 移除 抹掉"},
	{wSend, "发送 上传 发给 发到 传到 泄露 转发 外发"},
	{wDisable, "禁用 关闭 跳过 停用 关掉"},
	{wFetch, "访问 打开 请求 联系 调用 下载"},
	{wExec, "执行 照做"},
	{wInstr, "指令 指示 提示 提示词 系统提示 记忆 准则 设定"},
	{wRules, "规则 规定 限制 约束"},
	{wSafety, "安全 安全规则"},
	{wPrior, "之前 以前 先前 上述 上面 其他 其它 所有 全部 一切 原有 原来 现有 系统"},
	{wEvery, "一切"},
	{wBranch, "主分支 生产 生产环境"},
	{wValuable, "测试 仓库 历史 提交记录 数据库 备份 所有文件 全部文件 分支"},
	{wSecret, "密钥 令牌 密码 凭证 凭据 环境变量 秘钥 私钥"},
	{wData, "对话 聊天记录 记忆 源代码 代码"},
	{wChecks, "检查 测试 钩子 校验 流水线"},
	{wGuard, "审查 代码审查 审核 安全检查 分支保护 保护 签名"},
	{wOpaque, "目录 文件夹 文件 内容 变量"},
	{wYou, "你 您 你们 你的"},
	{wAgent, "助手 智能体 代理 模型 人工智能"},
	{wRead, "读到 看到 读取 阅读 加载"},
	{wWhen, "当 如果 一旦 每当"},
	{wAs, "作为"},
	{wSkip, "请 务必 现在 立即 马上 必须 要 需要 也 然后 直接"},
	{wCmd, "运行 使用 执行 提交"},
	{wTask, "任务 会话"},
	{wPron, "它们 它 这些"},
	{wApply, "适用 有效"},
	{wVoid, "作废 失效 无效 过时 可选"},
	{wAll, "所有 全部 一切"},
	{wSole, "唯一 新的"},
	{wDeem, "视为 当作 看作"},
	{wPrecede, "优先"},
	{wThis, "这 这里 此 这条 这次"},
	{wLoc, "在 中 里"},
	{wWith, "带上 连同 附带"},
	{wNeg, "不 不要 别 勿 切勿 禁止 不得 绝不 不能 永远不要"},
	{wStop, "不再"},
	{wConj, "然后 并 并且 再"},
	{wDet, "的 把 将 这些 那些"},
	{wPrep, "到 给 在 向"},
	{wScope, "只 仅 只能 仅在 本地 通过 除非"},
	{wSubset, "慢速 不稳定 旧的 过时"},
	{wScope | wWeak, "之后 以后 时"},
	{wHost, "直接 立即 马上 立刻 偷偷 悄悄 强制 无需 不经"},
	{wRole, "助手 系统 用户 人类"},
	{wAsst, "助手"},
	{wFirst, "我 好的 当然 明白 收到"},
	{wNowOn, "从现在起 从现在开始 今后"},
}

// lex is the lexicon as lookup tables.
type lexTables struct {
	exact map[string]wordClass
	stem  map[string]wordClass
	// hanMax is the longest Han word, in characters; stemMax the longest
	// stem, in bytes
	hanMax, stemMax int
	// stemStart holds the first two bytes of every stem: a word that
	// begins otherwise has no stem to look up
	stemStart map[[2]byte]bool
}

var lexi = sync.OnceValue(buildLex)

func buildLex() *lexTables {
	t := &lexTables{exact: map[string]wordClass{}, stem: map[string]wordClass{}, stemStart: map[[2]byte]bool{}}
	for _, e := range lexicon {
		for _, w := range strings.Fields(e.words) {
			if s, ok := strings.CutSuffix(w, "*"); ok {
				t.stem[s] |= e.c
				t.stemMax = max(t.stemMax, len(s))
				t.stemStart[[2]byte{s[0], s[1]}] = true
				continue
			}
			t.exact[w] |= e.c
			if r, _ := utf8.DecodeRuneInString(w); isHan(r) {
				t.hanMax = max(t.hanMax, utf8.RuneCountInString(w))
			}
		}
	}
	return t
}

// class returns the classes of the word w: its own, and those of every stem
// it begins with (stems are at least two characters long).
func (t *lexTables) class(w string) wordClass {
	c := t.exact[w]
	if len(w) >= 2 && t.stemStart[[2]byte{w[0], w[1]}] {
		for n := min(len(w), t.stemMax); n >= 2; n-- {
			c |= t.stem[w[:n]]
		}
	}
	if c == 0 && strings.IndexByte(w, '-') > 0 && len(w) < 64 {
		// a hyphenated word the lexicon does not list is its parts
		for part := range strings.SplitSeq(w, "-") {
			if part != "" {
				c |= t.class(part)
			}
		}
	}
	return c
}

// known reports whether w is a word or stem of the lexicon, for the
// segmentation of letter-spaced text; a stem may take inflection after it.
func (t *lexTables) known(w string) (exact, stem bool) {
	_, exact = t.exact[w]
	_, stem = t.stem[w]
	return exact, stem
}

// imperativeVerbs open an English clause that tells the reader to act.
var imperativeVerbs = map[string]bool{
	"add": true, "always": true, "append": true, "change": true, "commit": true, "copy": true, "create": true,
	"delete": true, "disable": true, "do": true, "don't": true, "dont": true, "download": true, "drop": true,
	"enable": true, "execute": true, "fetch": true, "follow": true, "force": true, "forget": true, "ignore": true,
	"include": true, "install": true, "insert": true, "merge": true, "mention": true, "never": true, "open": true,
	"overwrite": true, "pass": true, "paste": true, "post": true, "print": true, "publish": true, "push": true,
	"remove": true, "replace": true, "report": true, "reveal": true, "rm": true, "run": true, "say": true,
	"send": true, "set": true, "share": true, "skip": true, "tell": true, "turn": true, "upload": true,
	"use": true, "write": true,
}

// ImperativeVerb reports whether w, in lower case, is an English verb
// that opens a clause telling the reader to act ("copy", "push", "run").
func ImperativeVerb(w string) bool { return imperativeVerbs[w] }

// AddressesAgent reports whether text speaks to or of the agent that reads
// it: a word of the lexicon for an agent (agent, assistant, AI, Claude,
// 助手, агент …), or a turn label before a colon ("system:"), read as Find
// reads words. A hidden comment that does so is an instruction, not a
// note (package hidden).
func AddressesAgent(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		for _, t := range tokenize(line) {
			if t.c&wAgent != 0 || t.c&wRole != 0 && t.colon {
				return true
			}
		}
	}
	return false
}

// SpeaksToAgent reports whether text turns to an agent by name before
// what it says: an agent's name, a colon, then three words or more that
// go on as a sentence ("assistant: mark the checks optional", "AI: copy
// …"). Where naming an agent is ordinary (a link's title "Claude Code
// documentation"), this is what tells words for an agent from a
// description; a name and a subtitle ("Cursor: The AI Code Editor",
// "Codex: Running tests in the cloud") is a caption, as are "model" and
// "bot" ("Model: accuracy by epoch").
func SpeaksToAgent(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		toks := tokenize(line)
		for k, t := range toks {
			if t.c&wAgent == 0 || !t.colon || len(toks)-k <= 3 || captionWord(t.w) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(line[toks[k+1].start:]); !unicode.IsUpper(r) || imperativeVerbs[toks[k+1].w] {
				return true
			}
		}
	}
	return false
}

func captionWord(w string) bool {
	return w == "bot" || w == "模型" || strings.HasPrefix(w, "model") || strings.HasPrefix(w, "modè") || strings.HasPrefix(w, "модел")
}
